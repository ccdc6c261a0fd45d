// Models told truthfully in the dashboard (issue 15, defect 5): a banner on every page while no chat model is
// configured, and the agent form's model choice shows the model id the server calls.
import { createElement } from 'react'
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, test } from 'vitest'
import { ModelIdHint, ModelName } from '@/components/agents/model-id-hint'
import { NoModelBanner } from '@/components/layout/no-model-banner'
import { ServerModelsProvider, type ServerModels } from '@/components/layout/server-models'

function render(models: ServerModels, child: ReturnType<typeof createElement>) {
  return renderToStaticMarkup(createElement(ServerModelsProvider, { models, children: child }))
}

const configured: ServerModels = {
  chatConfigured: true,
  problem: null,
  modelIds: { model_3_5_turbo: 'llama3.1:8b', model_3_5_turbo_16k: 'gpt-4o-mini', model_4: 'gpt-4o', model_4_32k: 'gpt-4o' },
}
const none: ServerModels = { chatConfigured: false, problem: 'No chat model is configured: set OPENAI_API_KEY', modelIds: null }

describe('the dashboard tells which model answers', () => {
  test('a banner says agents cannot answer while no chat model is configured, and what to set', () => {
    const html = render(none, createElement(NoModelBanner))
    expect(html).toContain('role="alert"')
    expect(html).toContain('Agents cannot answer yet.')
    expect(html).toContain('OPENAI_API_KEY')
    expect(render(configured, createElement(NoModelBanner))).toBe('')
  })

  test("the agent form shows the model id a modelName maps to on this server (MODEL_MAP applied)", () => {
    expect(render(configured, createElement(ModelIdHint, { modelName: 'model_3_5_turbo' }))).toContain('<code class="rounded bg-muted px-1 py-0.5 font-mono text-foreground">llama3.1:8b</code>')
    expect(render(none, createElement(ModelIdHint, { modelName: 'model_4' }))).toContain('No chat model is configured')
  })

  test('where an agent\'s model is named (its header, the agents table, the playground), the model id follows the label', () => {
    expect(render(configured, createElement(ModelName, { modelName: 'model_3_5_turbo' }))).toMatch(/GPT-3\.5 Turbo.*· llama3\.1:8b/)
    expect(render(none, createElement(ModelName, { modelName: 'model_3_5_turbo' }))).not.toContain('·')
  })
})
