import * as React from 'react'
import { AlertCircle } from 'lucide-react'
import { Label } from '@/components/ui/label'
import { cn } from '@/lib/utils'

/** The muted "(optional)" after a field's label. */
export function Optional({ children = '(optional)' }: { children?: React.ReactNode }) {
  return <span className="font-normal text-muted-foreground">{children}</span>
}

/** A labelled form field: the label, then the control and whatever goes under it (hint, error). */
export function FormField({
  id,
  label,
  optional = false,
  className,
  children,
}: {
  /** The control's id, which the label names. */
  id: string
  label: React.ReactNode
  optional?: boolean
  className?: string
  children: React.ReactNode
}) {
  return (
    <div className={cn('grid gap-2', className)}>
      <Label htmlFor={id}>
        {label}
        {optional && <> <Optional /></>}
      </Label>
      {children}
    </div>
  )
}

/** A form's problem, announced when it appears; nothing when there is none. */
export function FormAlert({ id, message }: { id?: string; message: React.ReactNode }) {
  if (!message) return null
  return (
    <p id={id} role="alert" className="flex items-start gap-2 text-sm text-destructive">
      <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      {message}
    </p>
  )
}
