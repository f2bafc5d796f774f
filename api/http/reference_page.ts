/**
 * The API reference as one HTML page, rendered here from the OpenAPI document: no script, no font, no file from
 * anywhere else, so it reads the same on a network that reaches only this server (a facility's, an integrator's
 * closed test network) and under the API's own Content-Security-Policy.
 */

type Json = Record<string, any>;

const escape = (text: unknown) => String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** A schema in one line: `string (uuid)`, `integer 1–200`, `'active' | 'deactivated'`, `object`… */
function typeOf(schema: Json | undefined): string {
  if (!schema || typeof schema !== 'object') return 'any';
  if (schema.$ref) return String(schema.$ref).split('/').pop()!;
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  for (const key of ['anyOf', 'oneOf']) {
    if (Array.isArray(schema[key])) return schema[key].map(typeOf).join(' | ');
  }
  let text = Array.isArray(schema.type) ? schema.type.join(' | ') : schema.type ?? 'any';
  if (text === 'array') text = `array of ${typeOf(schema.items)}`;
  if (schema.format) text += ` (${schema.format})`;
  const min = schema.minLength ?? schema.minimum ?? schema.minItems;
  const max = schema.maxLength ?? schema.maximum ?? schema.maxItems;
  if (max !== undefined && max < Number.MAX_SAFE_INTEGER) text += `, ${min ?? 0}–${max}`;
  else if (min !== undefined) text += `, at least ${min}`;
  if (schema.pattern) text += `, matching ${schema.pattern}`;
  if (schema.contentMediaType) text += `, ${schema.contentMediaType}`;
  return text;
}

function fieldsTable(schema: Json): string {
  const properties = schema.properties as Record<string, Json> | undefined;
  if (schema.type !== 'object' || !properties) return `<p><code>${escape(typeOf(schema))}</code></p>`;
  const required = new Set<string>(schema.required ?? []);
  const rows = Object.entries(properties).map(([name, property]) =>
    `<tr><td><code>${escape(name)}</code></td><td>${required.has(name) ? 'yes' : 'no'}</td>` +
    `<td>${escape(typeOf(property))}${
      'default' in property ? ` (default ${escape(JSON.stringify(property.default))})` : ''
    }</td></tr>`
  );
  return `<table><tr><th>field</th><th>required</th><th>type</th></tr>${rows.join('')}</table>`;
}

/** A link to a shape of the Shapes section. */
const shapeLink = (name: string) => `<a href="#shape-${escape(name)}"><code>${escape(name)}</code></a>`;

/** The success an operation documents: its status and shape(s), or the generic success. */
function successHtml(operation: Json): string {
  for (const [status, response] of Object.entries((operation.responses ?? {}) as Record<string, Json>)) {
    const schema = response.content?.['application/json']?.schema as Json | undefined;
    if (!/^2\d\d$/.test(status) || !schema) continue;
    const refs = (schema.anyOf ?? [schema]) as Json[];
    const names = refs.map((ref) => String(ref.$ref ?? '').split('/').pop()!).filter(Boolean);
    if (names.length) return `${escape(status)} with ${names.map(shapeLink).join(' or ')}`;
  }
  return '<a href="#success">success</a>';
}

/** The Shapes section: every answer shape of the document, with its fields. */
function shapesHtml(schemas: Record<string, Json>): string {
  const generic = new Set(['Failure', 'FailureCode', 'Success']);
  return Object.entries(schemas).filter(([name]) => !generic.has(name)).map(([name, schema]) =>
    `<section class="shape" id="shape-${escape(name)}"><h3><code>${escape(name)}</code></h3>` +
    `${schema.description ? `<p>${escape(schema.description)}</p>` : ''}${fieldsTable(schema)}</section>`
  ).join('\n');
}

function operationHtml(path: string, method: string, operation: Json): string {
  const id = escape(operation.operationId);
  const parts = [
    `<section class="op" id="${id}"><h3><span class="m ${escape(method)}">${
      escape(method.toUpperCase())
    }</span> ` +
    `<code>${escape(path)}</code></h3><p>${escape(operation.description ?? '')}</p>`,
  ];
  const parameters = (operation.parameters ?? []) as Json[];
  if (parameters.length) {
    parts.push(
      '<h4>Parameters</h4><table><tr><th>name</th><th>in</th><th>required</th><th>type</th></tr>' +
        parameters.map((p) =>
          `<tr><td><code>${escape(p.name)}</code></td><td>${escape(p.in)}</td>` +
          `<td>${p.required ? 'yes' : 'no'}</td><td>${escape(typeOf(p.schema))}</td></tr>`
        ).join('') + '</table>',
    );
  }
  for (
    const [type, media] of Object.entries((operation.requestBody?.content ?? {}) as Record<string, Json>)
  ) {
    parts.push(`<h4>Body (<code>${escape(type)}</code>)</h4>${fieldsTable(media.schema ?? {})}`);
  }
  parts.push(
    `<p class="answers">Answers ${successHtml(operation)} or <a href="#failure">a failure</a>.</p></section>`,
  );
  return parts.join('');
}

/** The reference page for `document` (an OpenAPI 3.1 document made by buildOpenApi). */
export function renderReferencePage(document: Json): string {
  const byTag = new Map<string, string[]>();
  for (const [path, item] of Object.entries(document.paths as Record<string, Record<string, Json>>)) {
    for (const [method, operation] of Object.entries(item)) {
      const tag = operation.tags?.[0] ?? 'other';
      byTag.set(tag, [...byTag.get(tag) ?? [], operationHtml(path, method, operation)]);
    }
  }
  const tags = [...byTag.keys()].sort();
  const failure = document.components.schemas.FailureCode;
  const codes = (failure.description as string).split('\n').filter((line) => line.startsWith('| `'))
    .map((line) => line.slice(1, -1).split(' | ').map((cell) => cell.trim()))
    .map(([code, status, message]) =>
      `<tr><td><code>${escape(code.replaceAll('`', ''))}</code></td><td>${escape(status)}</td>` +
      `<td>${escape(message.replaceAll('\\|', '|'))}</td></tr>`
    );
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(document.info.title)}: reference</title>
<style>
body{font:15px/1.5 system-ui,sans-serif;margin:0 auto;max-width:60rem;padding:1rem 1.5rem;color:#1f1f1f}
code{font:13px ui-monospace,monospace}h2{border-bottom:1px solid #ccc;margin-top:2.5rem}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:.2rem .5rem;text-align:left;vertical-align:top}
.op,.shape{border-left:3px solid #ddd;padding-left:1rem;margin:1.5rem 0}.op h3,.shape h3{margin:0}.m{display:inline-block;min-width:4rem;font-size:13px}
.get{color:#0a6a2f}.post{color:#0b57a4}.put{color:#8a5300}.delete{color:#a4161a}nav{display:flex;flex-wrap:wrap;gap:.25rem .75rem}
</style></head><body>
<h1>${escape(document.info.title)}</h1>
<p>${escape(document.info.description)} The same reference as OpenAPI ${escape(document.openapi)}:
<a href="/api/openapi.json">/api/openapi.json</a>.</p>
<p>Routes that need a sign-in take <code>Authorization: Bearer &lt;token&gt;</code>, the token
<code>POST /api/auth/login</code> answers.</p>
<nav>${tags.map((tag) => `<a href="#tag-${escape(tag)}">${escape(tag)}</a>`).join('')}</nav>
${
    tags.map((tag) => `<h2 id="tag-${escape(tag)}">${escape(tag)}</h2>${byTag.get(tag)!.join('\n')}`).join(
      '\n',
    )
  }
<h2 id="shapes">Shapes</h2>
<p>The answers' shapes, generated from the TypeScript types of <code>contract/shapes/</code>: an object has exactly
the fields listed.</p>
${shapesHtml(document.components.schemas)}
<h2 id="success">Success</h2>
<p>${escape(document.components.responses.Success.description)}</p>
<h2 id="failure">Failure</h2>
<p>${escape(document.components.responses.Failure.description)}</p>
<table><tr><th>code</th><th>status</th><th>message</th></tr>${codes.join('')}</table>
</body></html>`;
}
