// The floor for `floe jobs --json`: what any Node client of the OLake UI must do, and nothing else.
// Logs in (POST /login), fetches a project's jobs with the session cookie and prints them as floe does
// (JSON, two-space indentation). No floe code, no validation, no sanitizing.
// Usage: node bench/plain-jobs.mjs URL USERNAME PROJECT  (the password in FLOE_PASSWORD)
import { request } from 'undici';

const [url, username, project] = process.argv.slice(2);
const login = await request(new URL('/login', url), {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ username, password: process.env.FLOE_PASSWORD }),
});
await login.body.dump();
const cookie = [login.headers['set-cookie']].flat()[0]?.split(';')[0];
if (login.statusCode !== 200 || !cookie) throw new Error(`login failed: ${login.statusCode}`);
const list = await request(new URL(`/api/v1/project/${project}/jobs`, url), { headers: { cookie } });
const { data } = await list.body.json();
process.stdout.write(`${JSON.stringify(data, null, 2)}\n`);
