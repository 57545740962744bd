// The hostile instances the walk serves are answers the clients accept: the OLake UI's through the
// route's own zod schema, the catalog's through the OpenAPI spec's (with ajv); and every string in them
// carries the payloads.
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/management/routes.js';
import { controlProblems, PAYLOADS } from './hostile.js';
import { HostileGenerator, hostileInstance } from './hostile-schema.js';
import { catalogOperations, loadIcebergSpec, routeSchema } from './hostile-servers.js';

function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value);
  else if (Array.isArray(value)) for (const v of value) strings(v, out);
  else if (value && typeof value === 'object') for (const v of Object.values(value)) strings(v, out);
  return out;
}

/** An enum's or a constant's value (a type name, a token type URN). */
const CONSTANT = /^[\w:.-]+$/;
const hostile = (s: string) => PAYLOADS.every((p) => s.includes(p));

describe('hostile instances', () => {
  it('the check finds every payload and nothing in plain text', () => {
    for (const p of PAYLOADS) expect(controlProblems(`x${p}y`), JSON.stringify(p)).not.toEqual([]);
    expect(controlProblems('plain \u001b[1mbold\u001b[22m text\r\n', { terminal: true })).toEqual([]);
  });

  it.each(Object.entries(ROUTES))(
    'OLake UI %s: accepted by its schema, every string hostile',
    (_name, route) => {
      const instance = hostileInstance(routeSchema(route));
      const parsed = route.data.safeParse(instance);
      expect(parsed.error?.issues ?? []).toEqual([]);
      const texts = strings(instance);
      for (const s of texts) expect(hostile(s), s).toBe(true);
    },
  );

  it('every catalog operation: its answer and its errors are valid by the spec', () => {
    const spec = loadIcebergSpec();
    const ajv = new Ajv2020({ strict: false, validateFormats: false, allErrors: true, logger: false });
    ajv.addSchema(spec, 'spec');
    const gen = new HostileGenerator({ root: spec });
    const ops = catalogOperations(spec);
    expect(ops.length).toBeGreaterThan(20);
    const invalid: string[] = [];
    for (const op of ops)
      for (const [status, schema] of [[op.status, op.schema], ...Object.entries(op.errors)] as const) {
        if (!schema) continue;
        const instance = gen.instance(schema);
        const check = ajv.compile(
          JSON.parse(JSON.stringify(schema).replaceAll('"#/components', '"spec#/components')),
        );
        // The spec's Action is a oneOf of three empty schemas and ApplyTransform: no instance matches
        // exactly one of them, so that error is the spec's, not the generator's.
        const errors = check(instance)
          ? []
          : (check.errors ?? []).filter(
              (e) => !(e.keyword === 'oneOf' && e.instancePath.endsWith('/action')),
            );
        if (errors.length > 0)
          invalid.push(`${op.endpoint} ${status}: ${ajv.errorsText(errors.slice(0, 3))}`);
        const texts = strings(instance);
        const plain = texts.filter((s) => !hostile(s) && !CONSTANT.test(s));
        if (plain.length)
          invalid.push(`${op.endpoint} ${status}: plain ${JSON.stringify(plain.slice(0, 5))}`);
      }
    expect(invalid).toEqual([]);
  });
});
