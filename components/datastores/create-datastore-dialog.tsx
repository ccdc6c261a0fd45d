'use client'

import * as React from 'react'
import { useRouter } from 'next/navigation'
import { useMutation, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { closeUnlessPending, CreateDialog } from '@/components/layout/create-dialog'
import { FormField } from '@/components/layout/form-field'
import { useCan } from '@/components/layout/member-role'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { DEFAULT_SEARCH_LANGUAGE, type SearchLanguage } from '@/lib/domain/languages'
import { createDatastore } from './datastores-api'
import { LanguageSelect } from './language-select'
import { datastoresQueryKey } from './types'

/** The "New datastore" button and its dialog, for the roles that may create one (datastores:write). */
export function CreateDatastoreDialog() {
  return useCan('datastores:write') ? <NewDatastoreDialog /> : null
}

function NewDatastoreDialog() {
  const [open, setOpen] = React.useState(false)
  const [name, setName] = React.useState('')
  const [description, setDescription] = React.useState('')
  const [language, setLanguage] = React.useState<SearchLanguage>(DEFAULT_SEARCH_LANGUAGE)
  const queryClient = useQueryClient()
  const router = useRouter()

  const create = useMutation({
    mutationFn: () => createDatastore({ name: name.trim(), description: description.trim() || null, language }),
    onSuccess: store => {
      void queryClient.invalidateQueries({ queryKey: datastoresQueryKey })
      toast.success(`Created “${store.name}”`)
      setOpen(false)
      router.push(`/datastores/${store.id}`)
    },
  })

  const onOpenChange = closeUnlessPending(create.isPending, setOpen, () => {
    setName('')
    setDescription('')
    setLanguage(DEFAULT_SEARCH_LANGUAGE)
    create.reset()
  })

  return (
    <CreateDialog
      open={open}
      onOpenChange={onOpenChange}
      triggerLabel="New datastore"
      title="New datastore"
      description="A collection of files, web pages and text that agents search to answer."
      canSubmit={!!name.trim()}
      onSubmit={() => create.mutate()}
      create={create}
    >
      <FormField id="datastore-name" label="Name">
        <Input
          id="datastore-name"
          value={name}
          onChange={e => setName(e.target.value)}
          placeholder="e.g. Product documentation"
          maxLength={200}
          required
          autoComplete="off"
        />
      </FormField>
      <FormField id="datastore-description" label="Description" optional>
        <Textarea
          id="datastore-description"
          value={description}
          onChange={e => setDescription(e.target.value)}
          maxLength={5000}
          rows={3}
          placeholder="What it holds, for your teammates"
        />
      </FormField>
      <FormField id="datastore-language" label="Language">
        <LanguageSelect id="datastore-language" value={language} onChange={setLanguage} className="w-fit" />
      </FormField>
    </CreateDialog>
  )
}
