import { z } from 'zod'
import {
  BUBBLE_POSITIONS,
  COLOR_SCHEMES,
  SOURCES_VISIBILITIES,
  type AgentAppearance,
  type SourcesVisibility,
} from '@/lib/domain/agents'
import type { AnswerSource } from '@/lib/domain/answer-events'

// An agent's public face (issue 14): how its chat page, the iframe and the bubble look and greet, and how much of an
// answer's sources a visitor sees. Stored as Agent.appearance (JSON); every field has a default, so a stored object
// may hold only some of them (or none: an agent created before theming). The defaults, documented once:
//   displayName null (the agent's name), avatarUrl null (a bot icon), primaryColor #2563eb, colorScheme light,
//   bubblePosition bottom-right, welcomeMessage "Hi! How can I help?", suggestedQuestions none,
//   sourcesVisibility titles (a visitor sees which documents an answer used, never their text), pageTitle null
//   (the display name); humanHandoff and markResolved on (the chat offers "Talk to a person" and "Resolved"), and
//   handoffMessage, what a query is answered while a person has the conversation (issue 23).

export const APPEARANCE_DEFAULTS: AgentAppearance = {
  displayName: null,
  avatarUrl: null,
  primaryColor: '#2563eb',
  colorScheme: 'light',
  bubblePosition: 'bottom-right',
  welcomeMessage: 'Hi! How can I help?',
  suggestedQuestions: [],
  sourcesVisibility: 'titles',
  pageTitle: null,
  humanHandoff: true,
  markResolved: true,
  handoffMessage: 'A person from the team has this conversation and will reply here shortly.',
}

export const SUGGESTED_QUESTIONS_MAX = 4
export const APPEARANCE_TEXT_MAX = { displayName: 80, welcomeMessage: 500, suggestedQuestion: 200, pageTitle: 120, avatarUrl: 2_048, handoffMessage: 500 }

// an empty string clears an optional text, as null does
const optionalText = (max: number) =>
  z.preprocess(v => (typeof v === 'string' && v.trim() === '' ? null : v), z.string().trim().max(max).nullable())

const AvatarUrl = z.preprocess(
  v => (typeof v === 'string' && v.trim() === '' ? null : v),
  z
    .string()
    .trim()
    .max(APPEARANCE_TEXT_MAX.avatarUrl)
    .refine(v => /^https:\/\/[^\s]+$/i.test(v) || /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$/.test(v), {
      message: 'an https:// URL or a data:image URL',
    })
    .nullable(),
)

/** What an agent create or update body may hold as `appearance`: any subset of the fields; the rest keep defaults. */
export const AppearanceBody = z
  .object({
    displayName: optionalText(APPEARANCE_TEXT_MAX.displayName),
    avatarUrl: AvatarUrl,
    primaryColor: z
      .string()
      .regex(/^#[0-9a-fA-F]{6}$/, 'a colour as #rrggbb')
      .transform(v => v.toLowerCase()),
    colorScheme: z.enum(COLOR_SCHEMES),
    bubblePosition: z.enum(BUBBLE_POSITIONS),
    welcomeMessage: z.string().trim().min(1, 'must not be empty').max(APPEARANCE_TEXT_MAX.welcomeMessage),
    suggestedQuestions: z
      .array(z.string().trim().min(1, 'must not be empty').max(APPEARANCE_TEXT_MAX.suggestedQuestion))
      .max(SUGGESTED_QUESTIONS_MAX, `at most ${SUGGESTED_QUESTIONS_MAX} questions`),
    sourcesVisibility: z.enum(SOURCES_VISIBILITIES),
    pageTitle: optionalText(APPEARANCE_TEXT_MAX.pageTitle),
    humanHandoff: z.boolean(),
    markResolved: z.boolean(),
    handoffMessage: z.string().trim().min(1, 'must not be empty').max(APPEARANCE_TEXT_MAX.handoffMessage),
  })
  .partial()
export type AppearanceInput = z.infer<typeof AppearanceBody>

/** The stored JSON as the resource shows it: every field, defaults where it holds none or an unreadable value. */
export function resolveAppearance(stored: unknown): AgentAppearance {
  const appearance: AgentAppearance = { ...APPEARANCE_DEFAULTS, suggestedQuestions: [] }
  if (!stored || typeof stored !== 'object') return appearance
  const shape = AppearanceBody.shape
  for (const key of Object.keys(APPEARANCE_DEFAULTS) as (keyof AgentAppearance)[]) {
    const value = (stored as Record<string, unknown>)[key]
    if (value === undefined) continue
    const parsed = shape[key].safeParse(value)
    // a value written under older rules is shown as the default rather than failing the read
    if (parsed.success && parsed.data !== undefined) (appearance as unknown as Record<string, unknown>)[key] = parsed.data
  }
  return appearance
}

/**
 * The JSON stored: the fields set so far with the given ones replaced (null returns a field to its default). Only set
 * fields are stored, so an agent follows the defaults it never changed.
 */
export function mergeAppearance(stored: unknown, input: AppearanceInput): Record<string, string | string[] | boolean> {
  const merged: Record<string, string | string[] | boolean> = stored && typeof stored === 'object' ? { ...(stored as object) } : {}
  for (const [key, value] of Object.entries(input)) {
    if (value === null) delete merged[key]
    else if (value !== undefined) merged[key] = value
  }
  return merged
}

/** An answer's sources as a visitor may see them: all, their titles only (no fragment text), or none. */
export function visibleSources(sources: AnswerSource[], visibility: SourcesVisibility): AnswerSource[] {
  if (visibility === 'full') return sources
  if (visibility === 'none') return []
  return sources.map(s => ({ text: '', score: s.score, source: s.source, datasource_id: s.datasource_id, datasource_name: s.datasource_name }))
}

/** The sources' visibility for a caller: the agent's organization sees everything; a visitor what the agent allows. */
export function sourcesVisibilityFor(member: boolean, storedAppearance: unknown): SourcesVisibility {
  return member ? 'full' : resolveAppearance(storedAppearance).sourcesVisibility
}

/** Whether a colour needs dark text on it (WCAG relative luminance): the launcher and header pick their text so. */
export function prefersDarkText(hex: string): boolean {
  const [r, g, b] = [1, 3, 5].map(i => {
    const c = parseInt(hex.slice(i, i + 2), 16) / 255
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
  })
  const luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
  // contrast with white (1.05 / (L + 0.05)) against contrast with black ((L + 0.05) / 0.05)
  return (luminance + 0.05) / 0.05 > 1.05 / (luminance + 0.05)
}
