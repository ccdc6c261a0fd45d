import type { Metadata } from 'next'
import { apiContracts } from '@/app/api/registry'
import { openApiDocument } from '@/lib/openapi/document'

// The API reference: the OpenAPI document of GET /api/openapi.json, rendered on the server (no script, no key).

export const metadata: Metadata = { title: 'API reference' }

type Json = Record<string, any>

/** The specification the service was built from is not the reader's: its section numbers are left out. */
const plain = (text: string | undefined) => text?.replace(/[,:;]?\s*\(?(?:see )?spec §[\d.]+(?:[-–][\d.]+)?\)?/g, '').trim()

const METHOD_STYLE: Record<string, string> = {
  get: 'bg-sky-100 text-sky-900',
  post: 'bg-emerald-100 text-emerald-900',
  patch: 'bg-amber-100 text-amber-900',
  delete: 'bg-rose-100 text-rose-900',
}

function Schema({ value }: { value: unknown }) {
  return <pre className="mt-1 max-h-80 max-w-full overflow-auto rounded bg-muted p-3 text-xs leading-relaxed">{plain(JSON.stringify(value, null, 2))}</pre>
}

function Operation({ method, path, op }: { method: string; path: string; op: Json }) {
  const body = op.requestBody?.content as Json | undefined
  return (
    <details className="min-w-0 rounded-lg border p-3" id={op.operationId}>
      <summary className="flex cursor-pointer flex-wrap items-center gap-2">
        <span className={`rounded px-2 py-0.5 font-mono text-xs font-semibold uppercase ${METHOD_STYLE[method] ?? ''}`}>{method}</span>
        <code className="text-sm font-medium break-all">{path}</code>
        <span className="min-w-0 text-sm text-muted-foreground">{plain(op.summary)}</span>
      </summary>
      <div className="mt-3 space-y-3 text-sm">
        {op.description && <p className="whitespace-pre-line text-muted-foreground">{plain(op.description)}</p>}
        {op.parameters?.length > 0 && (
          <div>
            <h4 className="font-medium">Parameters</h4>
            <ul className="mt-1 list-disc pl-5">
              {op.parameters.map((p: Json) => (
                <li key={`${p.in}-${p.name}`}>
                  <code>{p.name}</code> ({p.in}
                  {p.required ? ', required' : ''}) <code className="text-xs break-all text-muted-foreground">{JSON.stringify(p.schema)}</code>
                </li>
              ))}
            </ul>
          </div>
        )}
        {body &&
          Object.entries(body).map(([type, media]) => (
            <div key={type}>
              <h4 className="font-medium">Body ({type})</h4>
              <Schema value={(media as Json).schema} />
            </div>
          ))}
        <div>
          <h4 className="font-medium">Responses</h4>
          {Object.entries(op.responses as Json).map(([status, response]) => (
            <div key={status} className="mt-1">
              <p>
                <code>{status}</code> {(response as Json).description}
              </p>
              {Object.entries(((response as Json).content ?? {}) as Json).map(([type, media]) => (
                <div key={type} className="pl-4">
                  <p className="text-xs text-muted-foreground">{type}</p>
                  {(media as Json).description && <p className="whitespace-pre-line text-xs">{(media as Json).description}</p>}
                  {status.startsWith('2') && <Schema value={(media as Json).schema} />}
                </div>
              ))}
            </div>
          ))}
        </div>
      </div>
    </details>
  )
}

export default function ApiReferencePage() {
  const doc = openApiDocument(apiContracts()) as Json
  const tags = (doc.tags as { name: string }[]).map(t => t.name)
  const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) => Object.entries(item as Json).map(([method, op]) => ({ path, method, op: op as Json })))
  return (
    <main className="mx-auto max-w-5xl min-w-0 space-y-8 p-4 [overflow-wrap:anywhere] sm:p-6">
      <header className="space-y-2">
        <p className="text-sm">
          <a className="underline" href="/agents">
            ← Dashboard
          </a>
        </p>
        <h1 className="text-2xl font-semibold">{doc.info.title}</h1>
        <p className="text-sm text-muted-foreground">{doc.info.description}</p>
        <p className="text-sm">
          OpenAPI {doc.openapi} document: <a className="underline" href="/api/openapi.json">/api/openapi.json</a> (version {doc.info.version}). Every
          request sends <code>Authorization: Bearer &lt;API key&gt;</code> unless said otherwise.
        </p>
      </header>
      {tags.map(tag => (
        <section key={tag} className="space-y-2">
          <h2 className="text-lg font-semibold">{tag}</h2>
          {operations
            .filter(o => o.op.tags?.includes(tag))
            .map(o => (
              <Operation key={`${o.method} ${o.path}`} {...o} />
            ))}
        </section>
      ))}
      <section className="space-y-2">
        <h2 className="text-lg font-semibold">Response shapes</h2>
        {Object.entries(doc.components.schemas as Json).map(([name, schema]) => (
          <details key={name} className="rounded-lg border p-3">
            <summary className="cursor-pointer font-mono text-sm">{name}</summary>
            <Schema value={schema} />
          </details>
        ))}
      </section>
    </main>
  )
}
