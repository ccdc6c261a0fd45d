'use client'

import * as React from 'react'
import { FormAlert, FormField } from '@/components/layout/form-field'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { AddForm, useAddContent } from './add-form'
import { upsertDocuments } from './datastores-api'

/** Pasted text, with an optional name and source, upserted as one document. */
export function TextForm({ datastoreId }: { datastoreId: string }) {
  const [name, setName] = React.useState('')
  const [text, setText] = React.useState('')
  const [source, setSource] = React.useState('')
  const send = () =>
    upsertDocuments(datastoreId, [{ text, name: name.trim() || undefined, metadata: source.trim() ? { source: source.trim() } : undefined }])
  const { problem, create, submit } = useAddContent(datastoreId, 'Text', send, () => {
    setName('')
    setText('')
    setSource('')
  })
  return (
    <AddForm onSubmit={() => submit(text.trim() ? null : 'Paste or type some text')} create={create} errorId="text-error" submitLabel="Add text">
      <div className="grid gap-2 sm:grid-cols-2 sm:gap-4">
        <FormField id="text-name" label="Name" optional>
          <Input id="text-name" value={name} onChange={e => setName(e.target.value)} maxLength={500} placeholder="e.g. Refund policy" />
        </FormField>
        <FormField id="text-source" label="Source" optional>
          <Input id="text-source" value={source} onChange={e => setSource(e.target.value)} placeholder="Shown with answers, e.g. a URL" />
        </FormField>
      </div>
      <FormField id="text-content" label="Text">
        <Textarea
          id="text-content"
          value={text}
          onChange={e => setText(e.target.value)}
          rows={6}
          className="max-h-80"
          placeholder="Paste the text agents should know about"
          aria-invalid={!!problem || undefined}
          aria-describedby={problem ? 'text-content-error' : undefined}
        />
        <FormAlert id="text-content-error" message={problem} />
      </FormField>
    </AddForm>
  )
}
