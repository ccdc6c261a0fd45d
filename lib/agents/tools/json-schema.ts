import { z } from 'zod'

// The `parameters` of an HTTP tool: the JSON Schema of the arguments the model gives, checked when saved so that a
// typo is a 400 then, not a model that cannot call the tool. An object schema of typed properties, as function
// calling APIs accept; `required` names only declared properties.

const JSON_TYPES = ['string', 'number', 'integer', 'boolean', 'array', 'object', 'null'] as const

const PropertySchema: z.ZodType<Record<string, unknown>> = z.lazy(() =>
  z
    .object({
      type: z.union([z.enum(JSON_TYPES), z.array(z.enum(JSON_TYPES)).min(1)]).optional(),
      description: z.string().max(2000).optional(),
      enum: z.array(z.unknown()).max(500).optional(),
      items: PropertySchema.optional(),
      properties: z.record(z.string(), PropertySchema).optional(),
    })
    .loose(),
)

export const ParametersSchema = z
  .object({
    type: z.literal('object', { error: 'parameters must be a JSON Schema of type "object"' }),
    properties: z.record(z.string().min(1).max(64), PropertySchema).default({}),
    required: z.array(z.string()).optional(),
  })
  .loose()
  .refine(s => (s.required ?? []).every(name => Object.hasOwn(s.properties, name)), 'required names a property that parameters do not declare')
  .refine(s => JSON.stringify(s).length <= 20_000, 'parameters are too large (20,000 characters at most)')
