// How often a web source is fetched again (README "Schedules and webhooks"): a named interval or a number of hours.
import type { DatasourceType } from './datasources'

export const REFRESH_NAMES = ['off', 'hourly', 'daily', 'weekly'] as const
export type RefreshName = (typeof REFRESH_NAMES)[number]

/** A refresh interval as the API reads and writes it: a name, or a number of hours (1 to MAX_REFRESH_HOURS). */
export type RefreshInterval = RefreshName | number

export const MAX_REFRESH_HOURS = 24 * 365

const HOURS: Record<RefreshName, number> = { off: 0, hourly: 1, daily: 24, weekly: 168 }

/** The hours stored for an interval (0: off). */
export function refreshHours(interval: RefreshInterval): number {
  return typeof interval === 'number' ? interval : HOURS[interval]
}

/** The interval of stored hours: its name when it has one (null stays null: "the datastore's"). */
export function refreshInterval(hours: number | null): RefreshInterval | null {
  if (hours === null) return null
  const name = REFRESH_NAMES.find(n => HOURS[n] === hours)
  return name ?? hours
}

/** Which kinds are fetched from elsewhere and so can be refreshed on a schedule (lib/ingest/kinds checks it agrees). */
export const REFRESHABLE: Record<DatasourceType, boolean> = { file: false, text: false, web_page: true, web_site: true, notion: true, notion_page: false }
