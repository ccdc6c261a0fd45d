import ReactMarkdown, { type Components } from 'react-markdown'
import { cn } from '@/lib/utils'

// Answers are Markdown (CommonMark). Raw HTML in an answer is shown as text, never rendered (react-markdown's default),
// and links open in a new tab without access to this page.
const components: Components = {
  p: ({ node: _n, ...props }) => <p className="leading-relaxed [&:not(:first-child)]:mt-3" {...props} />,
  a: ({ node: _n, ...props }) => <a className="font-medium underline underline-offset-4" target="_blank" rel="noopener noreferrer nofollow" {...props} />,
  ul: ({ node: _n, ...props }) => <ul className="my-3 ml-5 list-disc space-y-1" {...props} />,
  ol: ({ node: _n, ...props }) => <ol className="my-3 ml-5 list-decimal space-y-1" {...props} />,
  li: ({ node: _n, ...props }) => <li className="leading-relaxed" {...props} />,
  h1: ({ node: _n, ...props }) => <h3 className="mt-4 mb-2 text-base font-semibold first:mt-0" {...props} />,
  h2: ({ node: _n, ...props }) => <h3 className="mt-4 mb-2 text-base font-semibold first:mt-0" {...props} />,
  h3: ({ node: _n, ...props }) => <h4 className="mt-3 mb-1.5 font-semibold first:mt-0" {...props} />,
  h4: ({ node: _n, ...props }) => <h5 className="mt-3 mb-1 font-semibold first:mt-0" {...props} />,
  blockquote: ({ node: _n, ...props }) => <blockquote className="my-3 border-l-2 pl-3 text-muted-foreground italic" {...props} />,
  hr: ({ node: _n, ...props }) => <hr className="my-4" {...props} />,
  pre: ({ node: _n, ...props }) => <pre className="my-3 overflow-x-auto rounded-lg bg-zinc-950 p-3 text-xs text-zinc-50 [&_code]:bg-transparent [&_code]:p-0 [&_code]:text-inherit" {...props} />,
  code: ({ node: _n, className, ...props }) => <code className={cn('rounded bg-muted px-1 py-0.5 font-mono text-[0.85em]', className)} {...props} />,
  img: ({ node: _n, alt }) => <span className="text-muted-foreground">[image{alt ? `: ${alt}` : ''}]</span>,
}

export function Markdown({ children, className }: { children: string; className?: string }) {
  return (
    <div className={cn('text-sm break-words', className)}>
      <ReactMarkdown components={components}>{children}</ReactMarkdown>
    </div>
  )
}
