'use client'

import * as React from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { toast } from 'sonner'
import { errorMessage } from '@/components/api-client'
import { listDatastores } from '@/components/datastores/datastores-api'
import { FilterSelect } from '@/components/inbox/filter-select'
import { Button } from '@/components/ui/button'
import { Input } from '@/components/ui/input'
import { Textarea } from '@/components/ui/textarea'
import { answerGaps, type GapGroup } from './gaps-api'

/** "Add an answer": the question and its answer become a text datasource of the chosen datastore. */
export function AddAnswerForm({ group, onDone }: { group: GapGroup; onDone: () => void }) {
  const client = useQueryClient()
  const datastores = useQuery({ queryKey: ['datastores'], queryFn: listDatastores })
  const [question, setQuestion] = React.useState(group.question)
  const [answer, setAnswer] = React.useState('')
  const [datastoreId, setDatastoreId] = React.useState('')
  const chosen = datastoreId || datastores.data?.[0]?.id || ''
  const save = useMutation({
    mutationFn: () => answerGaps({ messageIds: group.messageIds, datastoreId: chosen, question: question.trim(), answer: answer.trim() }),
    onSuccess: () => {
      toast.success('Answer added', { description: 'It is searchable as soon as it is synched.' })
      void client.invalidateQueries({ queryKey: ['gaps'] })
      onDone()
    },
  })
  const id = React.useId()
  if (datastores.data && datastores.data.length === 0) {
    return <p className="text-sm text-muted-foreground">Create a datastore first: the answer is added to one.</p>
  }
  return (
    <form
      className="grid gap-3 rounded-lg border bg-muted/30 p-3"
      data-testid="add-answer-form"
      onSubmit={e => {
        e.preventDefault()
        if (chosen && question.trim() && answer.trim()) save.mutate()
      }}
    >
      <div className="grid gap-1">
        <label htmlFor={`${id}-q`} className="text-xs font-medium text-muted-foreground">Question</label>
        <Input id={`${id}-q`} value={question} onChange={e => setQuestion(e.target.value)} maxLength={1000} />
      </div>
      <div className="grid gap-1">
        <label htmlFor={`${id}-a`} className="text-xs font-medium text-muted-foreground">Answer</label>
        <Textarea id={`${id}-a`} value={answer} onChange={e => setAnswer(e.target.value)} rows={4} maxLength={20000} data-testid="gap-answer-text" />
      </div>
      <FilterSelect
        id={`${id}-ds`}
        label="Add to datastore"
        value={chosen}
        onChange={setDatastoreId}
        options={(datastores.data ?? []).map(d => ({ value: d.id, label: d.name }))}
      />
      {save.isError && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(save.error)}
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        <Button type="submit" size="sm" disabled={!chosen || !question.trim() || !answer.trim() || save.isPending} data-testid="gap-answer-save">
          {save.isPending ? 'Saving…' : 'Save the answer'}
        </Button>
        <Button type="button" size="sm" variant="ghost" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  )
}
