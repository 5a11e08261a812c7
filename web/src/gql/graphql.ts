/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { DocumentTypeDecoration } from '@graphql-typed-document-node/core';
export type AlertKind =
  /** A live entry's amount changed (directly or by a 변경 부기등기). */
  | 'AMOUNT_CHANGED'
  /** A live entry was cancelled (말소). */
  | 'CANCELLED'
  /**
   * An uploaded copy checked against the registry differs from it (verifyCopy): CRITICAL when the copy does not show a
   * live risk the registry has ("this copy does not show …"), WARNING when the entry was registered after the copy was
   * printed.
   */
  | 'COPY_DIFFERS'
  /** The read was not COMPLETE: reasons say why. Re-issue before relying on the registry. */
  | 'COULD_NOT_VERIFY'
  /** A new live 근저당, 가압류, 압류, 가처분, 가등기, 신탁, 경매개시결정 or 임차권등기명령. */
  | 'NEW_ENTRY'
  /** A new 소유권이전. */
  | 'NEW_OWNER';

export type AlertSeverity =
  | 'CRITICAL'
  | 'INFO'
  | 'WARNING';

/** What a comparison of a read with the previous COMPLETE read found. */
export type CheckOutcome =
  /** The first COMPLETE read: the baseline later reads are compared with. */
  | 'BASELINE'
  | 'CHANGED'
  /** The read was not COMPLETE (or failed): nothing can be said, least of all 'no change'. */
  | 'COULD_NOT_VERIFY'
  | 'UNCHANGED';

export type CopyDifferenceKind =
  /** The copy shows an entry the registry does not have. */
  | 'ADDED'
  /** Both have the entry, not alike: its kind, amount, or whether it is cancelled. */
  | 'CHANGED'
  /** The registry has a live entry the copy does not show. */
  | 'MISSING';

export type CopyVerificationStatus =
  /** The registry's document could not be obtained or read in full: the copy was not checked. Verify it again. */
  | 'COULD_NOT_VERIFY'
  /** The copy differs from the registry: differences names each entry. */
  | 'DIFFERS'
  /** The copy matches the registry entry by entry. */
  | 'MATCHES'
  /** The registry's document is being issued and read. */
  | 'PENDING';

export type CreateNestInput = {
  address: string;
  /** 14 digits, as 1234-5678-901234 or without dashes. */
  registryUniqueNo: string;
  title: string;
};

/** Where a document came from. */
export type DocumentSource =
  /** The registry's document, issued for the nest by this service from the registry office. */
  | 'ISSUED'
  /** A copy the tenant uploaded (a PDF or photos of its pages): it can be doctored; verify it (verifyCopy). */
  | 'UPLOADED';

/** The verdict on a registry read. */
export type RegistryVerdict =
  /** The whole document was read with confidence and its 고유번호 is the nest's: the signals are a judgement. */
  | 'COMPLETE'
  /**
   * An uploaded copy that reads completely. A copy is not the registry (an entry can be whited out of it, its text
   * altered): signals stay null; verify it (verifyCopy) before relying on it.
   */
  | 'COPY_COMPLETE'
  /**
   * The document was read and is not a registry certificate (no 표제부, 갑구, 을구 or 고유번호): a lease contract, say.
   * Issue the registry, or upload the certificate itself.
   */
  | 'NOT_A_REGISTRY'
  /**
   * Read, but something was missing, guessed or read with low confidence (see reasons): findings are
   * real, absences are not. Re-issue or upload a clearer copy before relying on it.
   */
  | 'PARTIAL'
  /** Too little was read to say anything (no entries, no owner, garbled pages). Re-issue or upload a clearer copy. */
  | 'UNREADABLE'
  /**
   * The document is another property's: its 고유번호 (or, on a text layer, its printed address) is not the nest's.
   * Check the nest, then re-issue or upload the right document.
   */
  | 'WRONG_DOCUMENT';

/** Where a task is in its lifecycle. A retry keeps a task PROCESSING. */
export type TaskStatus =
  /** Final failure, with an error code. */
  | 'FAILED'
  /** The row exists; no worker has started real work. */
  | 'PENDING'
  /** A worker started; stays PROCESSING while a retry is scheduled. */
  | 'PROCESSING'
  /** Final success. */
  | 'SUCCESS';

export type WatchCheckStatus =
  /** The dates changed or the watch was cancelled before it ran. */
  | 'CANCELLED'
  /** It could not request an issuance (note says why). */
  | 'FAILED'
  /** Its issuance was requested (or the nest's active one reused). */
  | 'REQUESTED'
  | 'SCHEDULED';

export type WatchInput = {
  balanceDate?: string | null | undefined;
  contractDate?: string | null | undefined;
  /** Also check every everyDays days (1–90) until the until date. */
  everyDays?: number | null | undefined;
  moveInDate?: string | null | undefined;
  until?: string | null | undefined;
};

/** Why a check runs on its date. */
export type WatchPurpose =
  /** The day after moving in: the 전입신고 took effect at 0 시. */
  | 'AFTER_MOVE_IN'
  /** 잔금 (balance payment). */
  | 'BALANCE'
  | 'CONTRACT'
  /** 전입 (moving in). */
  | 'MOVE_IN'
  /** Every everyDays days until the until date. */
  | 'PERIODIC';

export type VerifyCopyMutationVariables = Exact<{
  fileId: string | number;
}>;


export type VerifyCopyMutation = { verifyCopy: { reused: boolean, verification: { id: string, status: CopyVerificationStatus } } };

export type AnalysisRefFragment = { section: string, rank: string, purpose: string, kind: string };

export type AnalysisEntryFragment = { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> };

export type CopyCheckFragment = { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: string, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> };

export type RegistryAnalysisQueryVariables = Exact<{
  id: string | number;
  deposit?: number | null | undefined;
  price?: number | null | undefined;
}>;


export type RegistryAnalysisQuery = { nest: { id: string, copyVerification: { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: string, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> } | null, registryAnalysis: { source: DocumentSource, parserVersion: number, analyzedAt: string, verdict: RegistryVerdict, advice: string, error: string | null, ocrTask: { id: string }, file: { id: string }, reasons: Array<{ code: string, message: string, section: string | null, rank: string | null, note: boolean }>, verification: { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: string, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> } | null, registry: { warnings: Array<string>, printedAt: string | null, title: { address: string, uniqueNo: string, buildingName: string, buildingNumber: string, unitNumber: string, areaM2: number }, ownership: Array<{ section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> }>, rights: Array<{ section: string, rank: string, purpose: string, kind: string, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> }> } | null, findings: { ownership: { since: string | null, recentTransfer: boolean, owners: Array<{ name: string, role: string, share: string | null }>, entries: Array<{ section: string, rank: string, purpose: string, kind: string }> }, mortgages: { total: number, entries: Array<{ section: string, rank: string, purpose: string, kind: string }> }, jeonse: { total: number, entries: Array<{ section: string, rank: string, purpose: string, kind: string }> }, flags: Array<{ kind: string, total: number | null, entries: Array<{ section: string, rank: string, purpose: string, kind: string }> }>, ratio: { value: number, mortgages: number, jeonse: number, leases: number, deposit: number, price: number } | null } } | null } };

export type NestTasksQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
}>;


export type NestTasksQuery = { nest: { id: string, title: string, address: string, registryUniqueNo: string, createdAt: string, issuanceTasks: { nodes: Array<{ id: string, version: number, ocrTask: { id: string, version: number } | null }> } } };

export type IssuanceTaskQueryVariables = Exact<{
  id: string | number;
}>;


export type IssuanceTaskQuery = { issuanceTask: { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null } };

export type OcrTaskQueryVariables = Exact<{
  id: string | number;
}>;


export type OcrTaskQuery = { ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } };

export type OcrPagesQueryVariables = Exact<{
  id: string | number;
}>;


export type OcrPagesQuery = { ocrTask: { id: string, pages: Array<{ page: number, text: string, confidence: number }> | null } };

export type FileUrlQueryVariables = Exact<{
  id: string | number;
}>;


export type FileUrlQuery = { issuanceTask: { id: string, file: { id: string, url: string } | null } };

export type UploadUrlQueryVariables = Exact<{
  id: string | number;
}>;


export type UploadUrlQuery = { ocrTask: { id: string, file: { id: string, url: string } } };

export type NestTasksUpdatedSubscriptionVariables = Exact<{
  nestId: string | number;
}>;


export type NestTasksUpdatedSubscription = { nestTasksUpdated:
    | { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null }
    | { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null }
   };

export type RequestIssuanceMutationVariables = Exact<{
  nestId: string | number;
}>;


export type RequestIssuanceMutation = { requestIssuance: { reused: boolean, task: { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null } } | null };

export type UploadRegistryMutationVariables = Exact<{
  nestId: string | number;
  file: File;
}>;


export type UploadRegistryMutation = { uploadRegistry: { reused: boolean, ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

export type UploadRegistryPagesMutationVariables = Exact<{
  nestId: string | number;
  pages: Array<File> | File;
}>;


export type UploadRegistryPagesMutation = { uploadRegistryPages: { reused: boolean, ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

export type RequestOcrMutationVariables = Exact<{
  fileId: string | number;
}>;


export type RequestOcrMutation = { requestOcr: { reused: boolean, task: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

export type NestsQueryVariables = Exact<{
  first?: number | null | undefined;
  after?: string | null | undefined;
}>;


export type NestsQuery = { nests: { nodes: Array<{ id: string, title: string, address: string, registryUniqueNo: string, createdAt: string }>, pageInfo: { hasNextPage: boolean, endCursor: string | null } } };

export type CreateNestMutationVariables = Exact<{
  input: CreateNestInput;
}>;


export type CreateNestMutation = { createNest: { id: string, title: string, address: string, registryUniqueNo: string, createdAt: string } };

export type MeQueryVariables = Exact<{ [key: string]: never; }>;


export type MeQuery = { me: { id: string } };

export type TaskEventFieldsFragment = { from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string };

export type IssuanceFieldsFragment = { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null };

export type OcrFieldsFragment = { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: string | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: string | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: string | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null };

export type WatchEntryFragment = { section: string, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> };

export type WatchAlertFragment = { id: string, kind: AlertKind, severity: AlertSeverity, message: string, createdAt: string, acknowledgedAt: string | null, before: { section: string, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, after: { section: string, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, reasons: Array<{ code: string, message: string }> };

export type WatchQueryVariables = Exact<{
  nestId: string | number;
}>;


export type WatchQuery = { nest: { watch: { contractDate: string | null, balanceDate: string | null, moveInDate: string | null, everyDays: number | null, until: string | null, checks: Array<{ id: string, purpose: WatchPurpose, date: string, runAt: string, status: WatchCheckStatus, note: string | null }> }, registryChecks: Array<{ id: string, verdict: string, outcome: CheckOutcome, createdAt: string, alerts: Array<{ id: string }> }>, alerts: { nodes: Array<{ id: string, kind: AlertKind, severity: AlertSeverity, message: string, createdAt: string, acknowledgedAt: string | null, before: { section: string, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, after: { section: string, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, reasons: Array<{ code: string, message: string }> }> } }, watchBudget: { month: string, limit: number, used: number, remaining: number } };

export type SetWatchMutationVariables = Exact<{
  nestId: string | number;
  input: WatchInput;
}>;


export type SetWatchMutation = { setWatch: { contractDate: string | null } };

export type CancelWatchMutationVariables = Exact<{
  nestId: string | number;
}>;


export type CancelWatchMutation = { cancelWatch: { contractDate: string | null } };

export type AckMutationVariables = Exact<{
  id: string | number;
}>;


export type AckMutation = { acknowledgeAlert: { id: string, acknowledgedAt: string | null } };

export type AlertsSubscriptionVariables = Exact<{
  nestId?: string | number | null | undefined;
}>;


export type AlertsSubscription = { alertRaised: { id: string } };

export class TypedDocumentString<TResult, TVariables>
  extends String
  implements DocumentTypeDecoration<TResult, TVariables>
{
  __apiType?: NonNullable<DocumentTypeDecoration<TResult, TVariables>['__apiType']>;
  private value: string;
  public __meta__?: Record<string, any> | undefined;

  constructor(value: string, __meta__?: Record<string, any> | undefined) {
    super(value);
    this.value = value;
    this.__meta__ = __meta__;
  }

  override toString(): string & DocumentTypeDecoration<TResult, TVariables> {
    return this.value;
  }
}
export const AnalysisRefFragmentDoc = new TypedDocumentString(`
    fragment AnalysisRef on RegistryEntryRef {
  section
  rank
  purpose
  kind
}
    `, {"fragmentName":"AnalysisRef"}) as unknown as TypedDocumentString<AnalysisRefFragment, unknown>;
export const AnalysisEntryFragmentDoc = new TypedDocumentString(`
    fragment AnalysisEntry on RegistryEntry {
  section
  rank
  purpose
  kind
  received
  amountLabel
  amount
  cancelled
  holders {
    role
    name
    share
  }
}
    `, {"fragmentName":"AnalysisEntry"}) as unknown as TypedDocumentString<AnalysisEntryFragment, unknown>;
export const CopyCheckFragmentDoc = new TypedDocumentString(`
    fragment CopyCheck on CopyVerification {
  id
  status
  message
  file {
    id
  }
  differences {
    kind
    section
    rank
    purpose
    afterCopy
    serious
    message
    copyEntry {
      ...AnalysisEntry
    }
    registryEntry {
      ...AnalysisEntry
    }
  }
}
    fragment AnalysisEntry on RegistryEntry {
  section
  rank
  purpose
  kind
  received
  amountLabel
  amount
  cancelled
  holders {
    role
    name
    share
  }
}`, {"fragmentName":"CopyCheck"}) as unknown as TypedDocumentString<CopyCheckFragment, unknown>;
export const TaskEventFieldsFragmentDoc = new TypedDocumentString(`
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
    `, {"fragmentName":"TaskEventFields"}) as unknown as TypedDocumentString<TaskEventFieldsFragment, unknown>;
export const IssuanceFieldsFragmentDoc = new TypedDocumentString(`
    fragment IssuanceFields on IssuanceTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  file {
    id
    size
    url
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}`, {"fragmentName":"IssuanceFields"}) as unknown as TypedDocumentString<IssuanceFieldsFragment, unknown>;
export const OcrFieldsFragmentDoc = new TypedDocumentString(`
    fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}`, {"fragmentName":"OcrFields"}) as unknown as TypedDocumentString<OcrFieldsFragment, unknown>;
export const WatchEntryFragmentDoc = new TypedDocumentString(`
    fragment WatchEntry on RegistryEntry {
  section
  rank
  purpose
  amountLabel
  amount
  holders {
    name
  }
  cancelled
}
    `, {"fragmentName":"WatchEntry"}) as unknown as TypedDocumentString<WatchEntryFragment, unknown>;
export const WatchAlertFragmentDoc = new TypedDocumentString(`
    fragment WatchAlert on Alert {
  id
  kind
  severity
  message
  before {
    ...WatchEntry
  }
  after {
    ...WatchEntry
  }
  reasons {
    code
    message
  }
  createdAt
  acknowledgedAt
}
    fragment WatchEntry on RegistryEntry {
  section
  rank
  purpose
  amountLabel
  amount
  holders {
    name
  }
  cancelled
}`, {"fragmentName":"WatchAlert"}) as unknown as TypedDocumentString<WatchAlertFragment, unknown>;
export const VerifyCopyDocument = new TypedDocumentString(`
    mutation VerifyCopy($fileId: ID!) {
  verifyCopy(fileId: $fileId) {
    reused
    verification {
      id
      status
    }
  }
}
    `) as unknown as TypedDocumentString<VerifyCopyMutation, VerifyCopyMutationVariables>;
export const RegistryAnalysisDocument = new TypedDocumentString(`
    query RegistryAnalysis($id: ID!, $deposit: Int64, $price: Int64) {
  nest(id: $id) {
    id
    copyVerification {
      ...CopyCheck
    }
    registryAnalysis(deposit: $deposit, price: $price) {
      ocrTask {
        id
      }
      source
      file {
        id
      }
      parserVersion
      analyzedAt
      verdict
      reasons {
        code
        message
        section
        rank
        note
      }
      advice
      error
      verification {
        ...CopyCheck
      }
      registry {
        title {
          address
          uniqueNo
          buildingName
          buildingNumber
          unitNumber
          areaM2
        }
        ownership {
          ...AnalysisEntry
        }
        rights {
          ...AnalysisEntry
        }
        warnings
        printedAt
      }
      findings {
        ownership {
          owners {
            name
            role
            share
          }
          since
          recentTransfer
          entries {
            ...AnalysisRef
          }
        }
        mortgages {
          total
          entries {
            ...AnalysisRef
          }
        }
        jeonse {
          total
          entries {
            ...AnalysisRef
          }
        }
        flags {
          kind
          total
          entries {
            ...AnalysisRef
          }
        }
        ratio {
          value
          mortgages
          jeonse
          leases
          deposit
          price
        }
      }
    }
  }
}
    fragment AnalysisRef on RegistryEntryRef {
  section
  rank
  purpose
  kind
}
fragment AnalysisEntry on RegistryEntry {
  section
  rank
  purpose
  kind
  received
  amountLabel
  amount
  cancelled
  holders {
    role
    name
    share
  }
}
fragment CopyCheck on CopyVerification {
  id
  status
  message
  file {
    id
  }
  differences {
    kind
    section
    rank
    purpose
    afterCopy
    serious
    message
    copyEntry {
      ...AnalysisEntry
    }
    registryEntry {
      ...AnalysisEntry
    }
  }
}`) as unknown as TypedDocumentString<RegistryAnalysisQuery, RegistryAnalysisQueryVariables>;
export const NestTasksDocument = new TypedDocumentString(`
    query NestTasks($id: ID!, $first: Int) {
  nest(id: $id) {
    id
    title
    address
    registryUniqueNo
    createdAt
    issuanceTasks(first: $first) {
      nodes {
        id
        version
        ocrTask {
          id
          version
        }
      }
    }
  }
}
    `) as unknown as TypedDocumentString<NestTasksQuery, NestTasksQueryVariables>;
export const IssuanceTaskDocument = new TypedDocumentString(`
    query IssuanceTask($id: ID!) {
  issuanceTask(id: $id) {
    ...IssuanceFields
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment IssuanceFields on IssuanceTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  file {
    id
    size
    url
  }
}`) as unknown as TypedDocumentString<IssuanceTaskQuery, IssuanceTaskQueryVariables>;
export const OcrTaskDocument = new TypedDocumentString(`
    query OcrTask($id: ID!) {
  ocrTask(id: $id) {
    ...OcrFields
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}`) as unknown as TypedDocumentString<OcrTaskQuery, OcrTaskQueryVariables>;
export const OcrPagesDocument = new TypedDocumentString(`
    query OcrPages($id: ID!) {
  ocrTask(id: $id) {
    id
    pages {
      page
      text
      confidence
    }
  }
}
    `) as unknown as TypedDocumentString<OcrPagesQuery, OcrPagesQueryVariables>;
export const FileUrlDocument = new TypedDocumentString(`
    query FileURL($id: ID!) {
  issuanceTask(id: $id) {
    id
    file {
      id
      url
    }
  }
}
    `) as unknown as TypedDocumentString<FileUrlQuery, FileUrlQueryVariables>;
export const UploadUrlDocument = new TypedDocumentString(`
    query UploadURL($id: ID!) {
  ocrTask(id: $id) {
    id
    file {
      id
      url
    }
  }
}
    `) as unknown as TypedDocumentString<UploadUrlQuery, UploadUrlQueryVariables>;
export const NestTasksUpdatedDocument = new TypedDocumentString(`
    subscription NestTasksUpdated($nestId: ID!) {
  nestTasksUpdated(nestId: $nestId) {
    ...IssuanceFields
    ...OcrFields
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment IssuanceFields on IssuanceTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  file {
    id
    size
    url
  }
}
fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}`) as unknown as TypedDocumentString<NestTasksUpdatedSubscription, NestTasksUpdatedSubscriptionVariables>;
export const RequestIssuanceDocument = new TypedDocumentString(`
    mutation RequestIssuance($nestId: ID!) {
  requestIssuance(nestId: $nestId) {
    reused
    task {
      ...IssuanceFields
    }
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment IssuanceFields on IssuanceTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  file {
    id
    size
    url
  }
}`) as unknown as TypedDocumentString<RequestIssuanceMutation, RequestIssuanceMutationVariables>;
export const UploadRegistryDocument = new TypedDocumentString(`
    mutation UploadRegistry($nestId: ID!, $file: Upload!) {
  uploadRegistry(nestId: $nestId, file: $file) {
    reused
    ocrTask {
      ...OcrFields
    }
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}`) as unknown as TypedDocumentString<UploadRegistryMutation, UploadRegistryMutationVariables>;
export const UploadRegistryPagesDocument = new TypedDocumentString(`
    mutation UploadRegistryPages($nestId: ID!, $pages: [Upload!]!) {
  uploadRegistryPages(nestId: $nestId, pages: $pages) {
    reused
    ocrTask {
      ...OcrFields
    }
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}`) as unknown as TypedDocumentString<UploadRegistryPagesMutation, UploadRegistryPagesMutationVariables>;
export const RequestOcrDocument = new TypedDocumentString(`
    mutation RequestOcr($fileId: ID!) {
  requestOcr(fileId: $fileId) {
    reused
    task {
      ...OcrFields
    }
  }
}
    fragment TaskEventFields on TaskEvent {
  from
  to
  errorCode
  attempt
  version
  at
}
fragment OcrFields on OcrTask {
  __typename
  id
  status
  errorCode
  errorMessage
  attempt
  maxAttempts
  lastErrorCode
  nextRetryAt
  createdAt
  startedAt
  finishedAt
  updatedAt
  version
  events {
    ...TaskEventFields
  }
  pageCount
  document: file {
    id
  }
  issuanceTask {
    id
  }
}`) as unknown as TypedDocumentString<RequestOcrMutation, RequestOcrMutationVariables>;
export const NestsDocument = new TypedDocumentString(`
    query Nests($first: Int, $after: String) {
  nests(first: $first, after: $after) {
    nodes {
      id
      title
      address
      registryUniqueNo
      createdAt
    }
    pageInfo {
      hasNextPage
      endCursor
    }
  }
}
    `) as unknown as TypedDocumentString<NestsQuery, NestsQueryVariables>;
export const CreateNestDocument = new TypedDocumentString(`
    mutation CreateNest($input: CreateNestInput!) {
  createNest(input: $input) {
    id
    title
    address
    registryUniqueNo
    createdAt
  }
}
    `) as unknown as TypedDocumentString<CreateNestMutation, CreateNestMutationVariables>;
export const MeDocument = new TypedDocumentString(`
    query Me {
  me {
    id
  }
}
    `) as unknown as TypedDocumentString<MeQuery, MeQueryVariables>;
export const WatchDocument = new TypedDocumentString(`
    query Watch($nestId: ID!) {
  nest(id: $nestId) {
    watch {
      contractDate
      balanceDate
      moveInDate
      everyDays
      until
      checks {
        id
        purpose
        date
        runAt
        status
        note
      }
    }
    registryChecks {
      id
      verdict
      outcome
      createdAt
      alerts {
        id
      }
    }
    alerts(first: 20) {
      nodes {
        ...WatchAlert
      }
    }
  }
  watchBudget {
    month
    limit
    used
    remaining
  }
}
    fragment WatchEntry on RegistryEntry {
  section
  rank
  purpose
  amountLabel
  amount
  holders {
    name
  }
  cancelled
}
fragment WatchAlert on Alert {
  id
  kind
  severity
  message
  before {
    ...WatchEntry
  }
  after {
    ...WatchEntry
  }
  reasons {
    code
    message
  }
  createdAt
  acknowledgedAt
}`) as unknown as TypedDocumentString<WatchQuery, WatchQueryVariables>;
export const SetWatchDocument = new TypedDocumentString(`
    mutation SetWatch($nestId: ID!, $input: WatchInput!) {
  setWatch(nestId: $nestId, input: $input) {
    contractDate
  }
}
    `) as unknown as TypedDocumentString<SetWatchMutation, SetWatchMutationVariables>;
export const CancelWatchDocument = new TypedDocumentString(`
    mutation CancelWatch($nestId: ID!) {
  cancelWatch(nestId: $nestId) {
    contractDate
  }
}
    `) as unknown as TypedDocumentString<CancelWatchMutation, CancelWatchMutationVariables>;
export const AckDocument = new TypedDocumentString(`
    mutation Ack($id: ID!) {
  acknowledgeAlert(id: $id) {
    id
    acknowledgedAt
  }
}
    `) as unknown as TypedDocumentString<AckMutation, AckMutationVariables>;
export const AlertsDocument = new TypedDocumentString(`
    subscription Alerts($nestId: ID) {
  alertRaised(nestId: $nestId) {
    id
  }
}
    `) as unknown as TypedDocumentString<AlertsSubscription, AlertsSubscriptionVariables>;