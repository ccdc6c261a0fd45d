import * as React from 'react'
import { Loader2 } from 'lucide-react'
import { Button } from '@/components/ui/button'

/** A button that is disabled and spins while its action runs. */
export function PendingButton({ pending, disabled, children, ...props }: { pending: boolean } & React.ComponentProps<typeof Button>) {
  return (
    <Button disabled={pending || disabled} {...props}>
      {pending && <Loader2 className="animate-spin" aria-hidden />}
      {children}
    </Button>
  )
}
