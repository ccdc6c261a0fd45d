'use client'

import * as React from 'react'

export const UNSAVED_CHANGES_MESSAGE = 'You have unsaved changes. Leave this page and lose them?'

/** Whether a click on this link leaves the page inside the app (not a new tab, a download, or a fragment of this page). */
function leavesPage(event: MouseEvent, link: HTMLAnchorElement): boolean {
  if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return false
  if (link.target && link.target !== '_self') return false
  if (link.hasAttribute('download')) return false
  const url = new URL(link.href, window.location.href)
  const here = new URL(window.location.href)
  return !(url.origin === here.origin && url.pathname === here.pathname && url.search === here.search)
}

/**
 * While `dirty`, leaving the page asks first: closing or reloading the tab (the browser's own prompt) and following a
 * link inside the app (a confirm; cancelling stays on the page with the edits). A save that navigates by itself
 * (router.push) is not asked about.
 */
export function useUnsavedChanges(dirty: boolean, message = UNSAVED_CHANGES_MESSAGE): void {
  React.useEffect(() => {
    if (!dirty) return
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault()
      event.returnValue = ''
    }
    // capture phase: before Next's <Link> handles the click
    const onClick = (event: MouseEvent) => {
      const link = (event.target as Element | null)?.closest?.('a[href]')
      if (!(link instanceof HTMLAnchorElement) || !leavesPage(event, link)) return
      if (window.confirm(message)) return
      event.preventDefault()
      event.stopPropagation()
    }
    window.addEventListener('beforeunload', onBeforeUnload)
    document.addEventListener('click', onClick, true)
    return () => {
      window.removeEventListener('beforeunload', onBeforeUnload)
      document.removeEventListener('click', onClick, true)
    }
  }, [dirty, message])
}
