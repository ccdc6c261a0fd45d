// Every endpoint of the API, gathered from the route files that declare them (lib/api/endpoint.ts). This list names
// modules, not endpoints: what each endpoint is stays in its route file. tests/api/registry.test.ts fails when a route
// file is missing here. The OpenAPI document, the typed client of the dashboard and the hardening matrix read it.
import type { Contract, EndpointHandler, Method } from '@/lib/api/endpoint'
import { METHODS } from '@/lib/api/endpoint'
import * as account from './account/route'
import * as accountPassword from './account/password/route'
import * as agentsIdCapture from './agents/[id]/capture/route'
import * as agentsIdConversations from './agents/[id]/conversations/route'
import * as agentsIdToolsRefresh from './agents/[id]/tools/refresh/route'
import * as agentsIdQuery from './agents/[id]/query/route'
import * as agentsId from './agents/[id]/route'
import * as agentsIdVisitorSecret from './agents/[id]/visitor-secret/route'
import * as agents from './agents/route'
import * as apiKeysId from './api-keys/[id]/route'
import * as apiKeys from './api-keys/route'
import * as auditLogExport from './audit-log/export/route'
import * as auditLog from './audit-log/route'
import * as connectionsId from './connections/[id]/route'
import * as connections from './connections/route'
import * as conversationsIdApprovalsApprovalId from './conversations/[id]/approvals/[approvalId]/route'
import * as conversationsIdApprovals from './conversations/[id]/approvals/route'
import * as conversationsIdMessagesMessageIdFeedback from './conversations/[id]/messages/[messageId]/feedback/route'
import * as conversationsIdMessage from './conversations/[id]/message/route'
import * as conversationsIdMessages from './conversations/[id]/messages/route'
import * as conversationsId from './conversations/[id]/route'
import * as conversationsEvalAnswer from './conversations/eval-answer/route'
import * as conversationsExport from './conversations/export/route'
import * as conversations from './conversations/route'
import * as datasourcesIdChunks from './datasources/[id]/chunks/route'
import * as datasourcesIdOriginal from './datasources/[id]/original/route'
import * as datasourcesId from './datasources/[id]/route'
import * as datasourcesIdSynch from './datasources/[id]/synch/route'
import * as datasourcesIdText from './datasources/[id]/text/route'
import * as datasources from './datasources/route'
import * as datastoresIdDatasourcesBulk from './datastores/[id]/datasources/bulk/route'
import * as datastoresIdDatasources from './datastores/[id]/datasources/route'
import * as datastoresIdQuery from './datastores/[id]/query/route'
import * as datastoresId from './datastores/[id]/route'
import * as datastores from './datastores/route'
import * as datastoresUpsertDatastoreId from './datastores/upsert/[datastoreId]/route'
import * as externalDatastoresFileUploadDatastoreId from './external/datastores/file-upload/[datastoreId]/route'
import * as gapsAnswer from './gaps/answer/route'
import * as gapsDismiss from './gaps/dismiss/route'
import * as gaps from './gaps/route'
import * as health from './health/route'
import * as leadsExport from './leads/export/route'
import * as leads from './leads/route'
import * as invitationsIdAccept from './invitations/[id]/accept/route'
import * as invitationsId from './invitations/[id]/route'
import * as invitations from './invitations/route'
import * as membersUserId from './members/[userId]/route'
import * as members from './members/route'
import * as organizations from './organizations/route'
import * as sessionOrganization from './session/organization/route'
import * as membersUserIdPasswordReset from './members/[userId]/password-reset/route'
import * as passwordResetsToken from './password-resets/[token]/route'
import * as metrics from './metrics/route'
import * as modelsMap from './models/map/route'
import * as modelsTest from './models/test/route'
import * as models from './models/route'
import * as system from './system/route'
import * as queryDatastoreId from './query/[datastoreId]/route'
import * as usageDaily from './usage/daily/route'
import * as usage from './usage/route'
import * as webhooksIdDeliveries from './webhooks/[id]/deliveries/route'
import * as webhooksId from './webhooks/[id]/route'
import * as webhooksDeliveriesIdResend from './webhooks/deliveries/[id]/resend/route'
import * as webhooks from './webhooks/route'
import * as mcp from './mcp/route'
import * as openapi from './openapi.json/route'

export const ROUTE_MODULES = [
  account,
  accountPassword,
  agentsIdCapture,
  agentsIdConversations,
  agentsIdToolsRefresh,
  agentsIdQuery,
  agentsId,
  agentsIdVisitorSecret,
  agents,
  apiKeysId,
  apiKeys,
  auditLogExport,
  auditLog,
  connectionsId,
  connections,
  conversationsIdApprovalsApprovalId,
  conversationsIdApprovals,
  conversationsIdMessagesMessageIdFeedback,
  conversationsIdMessage,
  conversationsIdMessages,
  conversationsId,
  conversationsEvalAnswer,
  conversationsExport,
  conversations,
  datasourcesIdChunks,
  datasourcesIdOriginal,
  datasourcesId,
  datasourcesIdSynch,
  datasourcesIdText,
  datasources,
  datastoresIdDatasourcesBulk,
  datastoresIdDatasources,
  datastoresIdQuery,
  datastoresId,
  datastores,
  datastoresUpsertDatastoreId,
  externalDatastoresFileUploadDatastoreId,
  gapsAnswer,
  gapsDismiss,
  gaps,
  health,
  leadsExport,
  leads,
  invitationsIdAccept,
  invitationsId,
  invitations,
  membersUserId,
  members,
  organizations,
  sessionOrganization,
  membersUserIdPasswordReset,
  passwordResetsToken,
  metrics,
  modelsMap,
  modelsTest,
  models,
  queryDatastoreId,
  system,
  usageDaily,
  usage,
  webhooksIdDeliveries,
  webhooksId,
  webhooksDeliveriesIdResend,
  webhooks,
  mcp,
  openapi,
] as const

type RouteModule = (typeof ROUTE_MODULES)[number]
type ContractOf<H> = H extends EndpointHandler<infer C> ? (C extends Contract ? C : never) : never
/** Every declared endpoint's contract, as a union of their exact types (the typed client reads it). */
export type ApiContract = { [M in Method]: ContractOf<RouteModule[M]> }[Method]

/** Every declared endpoint, in route-file order (read on call: the OpenAPI route is itself one of the modules). */
export function apiContracts(): Contract[] {
  return ROUTE_MODULES.flatMap(module => METHODS.flatMap(m => (module[m] as EndpointHandler<Contract | undefined>).contract ?? []))
}
