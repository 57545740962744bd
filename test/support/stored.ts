// The accounts floe keeps a profile's or the OLake UI login's secrets under, as a config folder's
// config.json names them (a save writes new entries under a new generation: secrets/shadow.ts).
import { ConfigStore } from '../../src/config/store.js';
import { accounts } from '../../src/secrets/store.js';

export function profileAccount(configDir: string, profile: string, field: string): string {
  const stored = new ConfigStore(configDir).getProfile(profile);
  return accounts.profileSecret(profile, field, stored?.secretsGeneration);
}

/** The session's and the remembered password's accounts for the logged-in OLake UI. */
export function loginAccounts(configDir: string): { session: string; password: string } {
  const settings = new ConfigStore(configDir).getManagement();
  if (!settings) throw new Error(`no OLake UI login in ${configDir}`);
  const origin = new URL(settings.url).origin;
  return {
    session: accounts.session(origin, settings.secretsGeneration),
    password: accounts.password(origin, settings.username ?? 'admin', settings.secretsGeneration),
  };
}
