/* eslint-disable */
import * as types from './graphql.js';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "mutation VerifyCopy($fileId: ID!) { verifyCopy(fileId: $fileId) { reused verification { id status } } }": typeof types.VerifyCopyDocument,
    "fragment AnalysisRef on RegistryEntryRef { section rank purpose kind }": typeof types.AnalysisRefFragmentDoc,
    "fragment AnalysisEntry on RegistryEntry { section rank purpose kind received amountLabel amount cancelled holders { role name share } }": typeof types.AnalysisEntryFragmentDoc,
    "fragment CopyCheck on CopyVerification { id status message file { id } differences {\n  kind section rank purpose afterCopy serious message copyEntry { ...AnalysisEntry } registryEntry { ...AnalysisEntry } } }": typeof types.CopyCheckFragmentDoc,
    "query RegistryAnalysis($id: ID!, $deposit: Int64, $price: Int64) {\n  nest(id: $id) {\n    id\n    copyVerification { ...CopyCheck }\n    alerts(first: 20) { nodes { id kind message ocrTask { id } } }\n    registryAnalysis(deposit: $deposit, price: $price) {\n      ocrTask { id } source file { id } parserVersion analyzedAt verdict reasons { code message section rank note } advice error\n      verification { ...CopyCheck }\n      registry {\n        title { address uniqueNo buildingName buildingNumber unitNumber areaM2 }\n        ownership { ...AnalysisEntry } rights { ...AnalysisEntry } warnings printedAt\n      }\n      findings {\n        ownership { owners { name role share } since recentTransfer entries { ...AnalysisRef } }\n        mortgages { total entries { ...AnalysisRef } }\n        jeonse { total entries { ...AnalysisRef } }\n        flags { kind total entries { ...AnalysisRef } }\n        ratio { value mortgages jeonse leases deposit price }\n      }\n    }\n  }\n  watchBudget { verificationLimit verificationsRemaining }\n}": typeof types.RegistryAnalysisDocument,
    "query NestTasks($id: ID!, $first: Int) {\n  nest(id: $id) {\n    id title address registryUniqueNo createdAt\n    issuanceTasks(first: $first) { nodes { id version ocrTask { id version } } }\n  }\n}": typeof types.NestTasksDocument,
    "query IssuanceTask($id: ID!) { issuanceTask(id: $id) { ...IssuanceFields } }": typeof types.IssuanceTaskDocument,
    "query OcrTask($id: ID!) { ocrTask(id: $id) { ...OcrFields } }": typeof types.OcrTaskDocument,
    "query OcrPages($id: ID!) { ocrTask(id: $id) { id pages { page text confidence } } }": typeof types.OcrPagesDocument,
    "query UploadVerdict($id: ID!) { ocrTask(id: $id) { id analysis { verdict reasons { message } } } }": typeof types.UploadVerdictDocument,
    "query FileURL($id: ID!) { issuanceTask(id: $id) { id file { id url } } }": typeof types.FileUrlDocument,
    "query UploadURL($id: ID!) { ocrTask(id: $id) { id file { id url } } }": typeof types.UploadUrlDocument,
    "subscription NestTasksUpdated($nestId: ID!) {\n  nestTasksUpdated(nestId: $nestId) { ...IssuanceFields ...OcrFields }\n}": typeof types.NestTasksUpdatedDocument,
    "mutation RequestIssuance($nestId: ID!) {\n  requestIssuance(nestId: $nestId) { reused task { ...IssuanceFields } }\n}": typeof types.RequestIssuanceDocument,
    "mutation UploadRegistry($nestId: ID!, $file: Upload!) {\n  uploadRegistry(nestId: $nestId, file: $file) { reused ocrTask { ...OcrFields } }\n}": typeof types.UploadRegistryDocument,
    "mutation UploadRegistryPages($nestId: ID!, $pages: [Upload!]!) {\n  uploadRegistryPages(nestId: $nestId, pages: $pages) { reused ocrTask { ...OcrFields } }\n}": typeof types.UploadRegistryPagesDocument,
    "mutation RequestOcr($fileId: ID!) {\n  requestOcr(fileId: $fileId) { reused task { ...OcrFields } }\n}": typeof types.RequestOcrDocument,
    "query Nests($first: Int, $after: String) {\n  nests(first: $first, after: $after) {\n    nodes { id title address registryUniqueNo createdAt }\n    pageInfo { hasNextPage endCursor }\n  }\n}": typeof types.NestsDocument,
    "mutation CreateNest($input: CreateNestInput!) {\n  createNest(input: $input) { id title address registryUniqueNo createdAt }\n}": typeof types.CreateNestDocument,
    "query Me { me { id } }": typeof types.MeDocument,
    "fragment TaskEventFields on TaskEvent { from to errorCode attempt version at }": typeof types.TaskEventFieldsFragmentDoc,
    "fragment IssuanceFields on IssuanceTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  file { id size url }\n}": typeof types.IssuanceFieldsFragmentDoc,
    "fragment OcrFields on OcrTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  pageCount\n  document: file { id }\n  issuanceTask { id }\n}": typeof types.OcrFieldsFragmentDoc,
    "fragment WatchEntry on RegistryEntry { section rank purpose amountLabel amount holders { name } cancelled }": typeof types.WatchEntryFragmentDoc,
    "fragment WatchAlert on Alert {\n  id kind severity message before { ...WatchEntry } after { ...WatchEntry } reasons { code message } createdAt acknowledgedAt\n}": typeof types.WatchAlertFragmentDoc,
    "query Watch($nestId: ID!) {\n  nest(id: $nestId) {\n    watch { contractDate balanceDate moveInDate everyDays until checks { id purpose date runAt status note } }\n    registryChecks { id verdict outcome createdAt alerts { id } }\n    alerts(first: 20) { nodes { ...WatchAlert } }\n  }\n  watchBudget { month limit used remaining }\n}": typeof types.WatchDocument,
    "mutation SetWatch($nestId: ID!, $input: WatchInput!) { setWatch(nestId: $nestId, input: $input) { contractDate } }": typeof types.SetWatchDocument,
    "mutation CancelWatch($nestId: ID!) { cancelWatch(nestId: $nestId) { contractDate } }": typeof types.CancelWatchDocument,
    "mutation Ack($id: ID!) { acknowledgeAlert(id: $id) { id acknowledgedAt } }": typeof types.AckDocument,
    "subscription Alerts($nestId: ID) { alertRaised(nestId: $nestId) { id } }": typeof types.AlertsDocument,
};
const documents: Documents = {
    "mutation VerifyCopy($fileId: ID!) { verifyCopy(fileId: $fileId) { reused verification { id status } } }": types.VerifyCopyDocument,
    "fragment AnalysisRef on RegistryEntryRef { section rank purpose kind }": types.AnalysisRefFragmentDoc,
    "fragment AnalysisEntry on RegistryEntry { section rank purpose kind received amountLabel amount cancelled holders { role name share } }": types.AnalysisEntryFragmentDoc,
    "fragment CopyCheck on CopyVerification { id status message file { id } differences {\n  kind section rank purpose afterCopy serious message copyEntry { ...AnalysisEntry } registryEntry { ...AnalysisEntry } } }": types.CopyCheckFragmentDoc,
    "query RegistryAnalysis($id: ID!, $deposit: Int64, $price: Int64) {\n  nest(id: $id) {\n    id\n    copyVerification { ...CopyCheck }\n    alerts(first: 20) { nodes { id kind message ocrTask { id } } }\n    registryAnalysis(deposit: $deposit, price: $price) {\n      ocrTask { id } source file { id } parserVersion analyzedAt verdict reasons { code message section rank note } advice error\n      verification { ...CopyCheck }\n      registry {\n        title { address uniqueNo buildingName buildingNumber unitNumber areaM2 }\n        ownership { ...AnalysisEntry } rights { ...AnalysisEntry } warnings printedAt\n      }\n      findings {\n        ownership { owners { name role share } since recentTransfer entries { ...AnalysisRef } }\n        mortgages { total entries { ...AnalysisRef } }\n        jeonse { total entries { ...AnalysisRef } }\n        flags { kind total entries { ...AnalysisRef } }\n        ratio { value mortgages jeonse leases deposit price }\n      }\n    }\n  }\n  watchBudget { verificationLimit verificationsRemaining }\n}": types.RegistryAnalysisDocument,
    "query NestTasks($id: ID!, $first: Int) {\n  nest(id: $id) {\n    id title address registryUniqueNo createdAt\n    issuanceTasks(first: $first) { nodes { id version ocrTask { id version } } }\n  }\n}": types.NestTasksDocument,
    "query IssuanceTask($id: ID!) { issuanceTask(id: $id) { ...IssuanceFields } }": types.IssuanceTaskDocument,
    "query OcrTask($id: ID!) { ocrTask(id: $id) { ...OcrFields } }": types.OcrTaskDocument,
    "query OcrPages($id: ID!) { ocrTask(id: $id) { id pages { page text confidence } } }": types.OcrPagesDocument,
    "query UploadVerdict($id: ID!) { ocrTask(id: $id) { id analysis { verdict reasons { message } } } }": types.UploadVerdictDocument,
    "query FileURL($id: ID!) { issuanceTask(id: $id) { id file { id url } } }": types.FileUrlDocument,
    "query UploadURL($id: ID!) { ocrTask(id: $id) { id file { id url } } }": types.UploadUrlDocument,
    "subscription NestTasksUpdated($nestId: ID!) {\n  nestTasksUpdated(nestId: $nestId) { ...IssuanceFields ...OcrFields }\n}": types.NestTasksUpdatedDocument,
    "mutation RequestIssuance($nestId: ID!) {\n  requestIssuance(nestId: $nestId) { reused task { ...IssuanceFields } }\n}": types.RequestIssuanceDocument,
    "mutation UploadRegistry($nestId: ID!, $file: Upload!) {\n  uploadRegistry(nestId: $nestId, file: $file) { reused ocrTask { ...OcrFields } }\n}": types.UploadRegistryDocument,
    "mutation UploadRegistryPages($nestId: ID!, $pages: [Upload!]!) {\n  uploadRegistryPages(nestId: $nestId, pages: $pages) { reused ocrTask { ...OcrFields } }\n}": types.UploadRegistryPagesDocument,
    "mutation RequestOcr($fileId: ID!) {\n  requestOcr(fileId: $fileId) { reused task { ...OcrFields } }\n}": types.RequestOcrDocument,
    "query Nests($first: Int, $after: String) {\n  nests(first: $first, after: $after) {\n    nodes { id title address registryUniqueNo createdAt }\n    pageInfo { hasNextPage endCursor }\n  }\n}": types.NestsDocument,
    "mutation CreateNest($input: CreateNestInput!) {\n  createNest(input: $input) { id title address registryUniqueNo createdAt }\n}": types.CreateNestDocument,
    "query Me { me { id } }": types.MeDocument,
    "fragment TaskEventFields on TaskEvent { from to errorCode attempt version at }": types.TaskEventFieldsFragmentDoc,
    "fragment IssuanceFields on IssuanceTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  file { id size url }\n}": types.IssuanceFieldsFragmentDoc,
    "fragment OcrFields on OcrTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  pageCount\n  document: file { id }\n  issuanceTask { id }\n}": types.OcrFieldsFragmentDoc,
    "fragment WatchEntry on RegistryEntry { section rank purpose amountLabel amount holders { name } cancelled }": types.WatchEntryFragmentDoc,
    "fragment WatchAlert on Alert {\n  id kind severity message before { ...WatchEntry } after { ...WatchEntry } reasons { code message } createdAt acknowledgedAt\n}": types.WatchAlertFragmentDoc,
    "query Watch($nestId: ID!) {\n  nest(id: $nestId) {\n    watch { contractDate balanceDate moveInDate everyDays until checks { id purpose date runAt status note } }\n    registryChecks { id verdict outcome createdAt alerts { id } }\n    alerts(first: 20) { nodes { ...WatchAlert } }\n  }\n  watchBudget { month limit used remaining }\n}": types.WatchDocument,
    "mutation SetWatch($nestId: ID!, $input: WatchInput!) { setWatch(nestId: $nestId, input: $input) { contractDate } }": types.SetWatchDocument,
    "mutation CancelWatch($nestId: ID!) { cancelWatch(nestId: $nestId) { contractDate } }": types.CancelWatchDocument,
    "mutation Ack($id: ID!) { acknowledgeAlert(id: $id) { id acknowledgedAt } }": types.AckDocument,
    "subscription Alerts($nestId: ID) { alertRaised(nestId: $nestId) { id } }": types.AlertsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation VerifyCopy($fileId: ID!) { verifyCopy(fileId: $fileId) { reused verification { id status } } }"): typeof import('./graphql.js').VerifyCopyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AnalysisRef on RegistryEntryRef { section rank purpose kind }"): typeof import('./graphql.js').AnalysisRefFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment AnalysisEntry on RegistryEntry { section rank purpose kind received amountLabel amount cancelled holders { role name share } }"): typeof import('./graphql.js').AnalysisEntryFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment CopyCheck on CopyVerification { id status message file { id } differences {\n  kind section rank purpose afterCopy serious message copyEntry { ...AnalysisEntry } registryEntry { ...AnalysisEntry } } }"): typeof import('./graphql.js').CopyCheckFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query RegistryAnalysis($id: ID!, $deposit: Int64, $price: Int64) {\n  nest(id: $id) {\n    id\n    copyVerification { ...CopyCheck }\n    alerts(first: 20) { nodes { id kind message ocrTask { id } } }\n    registryAnalysis(deposit: $deposit, price: $price) {\n      ocrTask { id } source file { id } parserVersion analyzedAt verdict reasons { code message section rank note } advice error\n      verification { ...CopyCheck }\n      registry {\n        title { address uniqueNo buildingName buildingNumber unitNumber areaM2 }\n        ownership { ...AnalysisEntry } rights { ...AnalysisEntry } warnings printedAt\n      }\n      findings {\n        ownership { owners { name role share } since recentTransfer entries { ...AnalysisRef } }\n        mortgages { total entries { ...AnalysisRef } }\n        jeonse { total entries { ...AnalysisRef } }\n        flags { kind total entries { ...AnalysisRef } }\n        ratio { value mortgages jeonse leases deposit price }\n      }\n    }\n  }\n  watchBudget { verificationLimit verificationsRemaining }\n}"): typeof import('./graphql.js').RegistryAnalysisDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query NestTasks($id: ID!, $first: Int) {\n  nest(id: $id) {\n    id title address registryUniqueNo createdAt\n    issuanceTasks(first: $first) { nodes { id version ocrTask { id version } } }\n  }\n}"): typeof import('./graphql.js').NestTasksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query IssuanceTask($id: ID!) { issuanceTask(id: $id) { ...IssuanceFields } }"): typeof import('./graphql.js').IssuanceTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OcrTask($id: ID!) { ocrTask(id: $id) { ...OcrFields } }"): typeof import('./graphql.js').OcrTaskDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query OcrPages($id: ID!) { ocrTask(id: $id) { id pages { page text confidence } } }"): typeof import('./graphql.js').OcrPagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query UploadVerdict($id: ID!) { ocrTask(id: $id) { id analysis { verdict reasons { message } } } }"): typeof import('./graphql.js').UploadVerdictDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query FileURL($id: ID!) { issuanceTask(id: $id) { id file { id url } } }"): typeof import('./graphql.js').FileUrlDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query UploadURL($id: ID!) { ocrTask(id: $id) { id file { id url } } }"): typeof import('./graphql.js').UploadUrlDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription NestTasksUpdated($nestId: ID!) {\n  nestTasksUpdated(nestId: $nestId) { ...IssuanceFields ...OcrFields }\n}"): typeof import('./graphql.js').NestTasksUpdatedDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RequestIssuance($nestId: ID!) {\n  requestIssuance(nestId: $nestId) { reused task { ...IssuanceFields } }\n}"): typeof import('./graphql.js').RequestIssuanceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UploadRegistry($nestId: ID!, $file: Upload!) {\n  uploadRegistry(nestId: $nestId, file: $file) { reused ocrTask { ...OcrFields } }\n}"): typeof import('./graphql.js').UploadRegistryDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation UploadRegistryPages($nestId: ID!, $pages: [Upload!]!) {\n  uploadRegistryPages(nestId: $nestId, pages: $pages) { reused ocrTask { ...OcrFields } }\n}"): typeof import('./graphql.js').UploadRegistryPagesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation RequestOcr($fileId: ID!) {\n  requestOcr(fileId: $fileId) { reused task { ...OcrFields } }\n}"): typeof import('./graphql.js').RequestOcrDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Nests($first: Int, $after: String) {\n  nests(first: $first, after: $after) {\n    nodes { id title address registryUniqueNo createdAt }\n    pageInfo { hasNextPage endCursor }\n  }\n}"): typeof import('./graphql.js').NestsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CreateNest($input: CreateNestInput!) {\n  createNest(input: $input) { id title address registryUniqueNo createdAt }\n}"): typeof import('./graphql.js').CreateNestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Me { me { id } }"): typeof import('./graphql.js').MeDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment TaskEventFields on TaskEvent { from to errorCode attempt version at }"): typeof import('./graphql.js').TaskEventFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment IssuanceFields on IssuanceTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  file { id size url }\n}"): typeof import('./graphql.js').IssuanceFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment OcrFields on OcrTask {\n  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt\n  createdAt startedAt finishedAt updatedAt version\n  events { ...TaskEventFields }\n  pageCount\n  document: file { id }\n  issuanceTask { id }\n}"): typeof import('./graphql.js').OcrFieldsFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WatchEntry on RegistryEntry { section rank purpose amountLabel amount holders { name } cancelled }"): typeof import('./graphql.js').WatchEntryFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "fragment WatchAlert on Alert {\n  id kind severity message before { ...WatchEntry } after { ...WatchEntry } reasons { code message } createdAt acknowledgedAt\n}"): typeof import('./graphql.js').WatchAlertFragmentDoc;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "query Watch($nestId: ID!) {\n  nest(id: $nestId) {\n    watch { contractDate balanceDate moveInDate everyDays until checks { id purpose date runAt status note } }\n    registryChecks { id verdict outcome createdAt alerts { id } }\n    alerts(first: 20) { nodes { ...WatchAlert } }\n  }\n  watchBudget { month limit used remaining }\n}"): typeof import('./graphql.js').WatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation SetWatch($nestId: ID!, $input: WatchInput!) { setWatch(nestId: $nestId, input: $input) { contractDate } }"): typeof import('./graphql.js').SetWatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation CancelWatch($nestId: ID!) { cancelWatch(nestId: $nestId) { contractDate } }"): typeof import('./graphql.js').CancelWatchDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "mutation Ack($id: ID!) { acknowledgeAlert(id: $id) { id acknowledgedAt } }"): typeof import('./graphql.js').AckDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "subscription Alerts($nestId: ID) { alertRaised(nestId: $nestId) { id } }"): typeof import('./graphql.js').AlertsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
