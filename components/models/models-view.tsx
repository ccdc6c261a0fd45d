'use client'

import { PageHeader } from '@/components/layout/page-header'
import { ConnectionTestCard } from './connection-test'
import { ModelMapEditor } from './model-map-editor'
import { ServerModelList } from './server-model-list'

/** The Models page (admins, issue 27): the server's models, the organization's map, the connection test. */
export function ModelsView() {
  return (
    <>
      <PageHeader
        title="Models"
        description="The OpenAI-compatible server in OPENAI_BASE_URL: what it serves, what each model name of the API is sent as, and whether it answers. Keys stay in the environment."
      />
      <div className="grid gap-6">
        <ConnectionTestCard />
        <ServerModelList />
        <ModelMapEditor />
      </div>
    </>
  )
}
