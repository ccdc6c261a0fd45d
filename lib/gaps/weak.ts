// When an answer's retrieval counts as weak (the gap queue and the inbox's "no/weak sources" filter).
//
// Message.topScore is the best fragment's relevance before the agent's floor (lib/agents/retrieval.ts, issue 13),
// in [0, 1]. An answer is weak when nothing cleared the floor (Message.noSources) or when its best fragment scored
// below WEAK_TOP_SCORE. An answer of an agent without datastores has topScore null and noSources false: it is not
// a gap (nothing was searched).

export const WEAK_TOP_SCORE = 0.3

/** SQL condition on an assistant message aliased `alias`: its retrieval found nothing or only weak matches. */
export const weakSql = (alias: string) => `(${alias}."noSources" OR ${alias}."topScore" < ${WEAK_TOP_SCORE})`
