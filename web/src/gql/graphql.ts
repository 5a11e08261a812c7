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

/**
 * The verdict of a compared read: a RegistryVerdict, or NONE when there was nothing to judge. A separate enum rather
 * than a nullable RegistryVerdict, so that the wire keeps the string NONE that verdict carried as a String. On the wire
 * each value is its name.
 */
export type RegistryCheckVerdict =
  /** The registry's own document, issued for the nest, was read in full. */
  | 'COMPLETE'
  /** An uploaded copy was read in full: what the copy says, not a judgement of the registry (verifyCopy checks it against the registry). */
  | 'COPY_COMPLETE'
  /** There was no read: the watch check's issuance failed, or the OCR did. */
  | 'NONE'
  | 'NOT_A_REGISTRY'
  | 'PARTIAL'
  | 'UNREADABLE'
  | 'WRONG_DOCUMENT';

/**
 * What an entry does, whatever its wording. On the wire each value is its name, in lower case as it always was. A 부기
 * (rank N-1: amendment, right_transfer, pledge) changes the entry it refers to and never cancels it.
 */
export type RegistryEntryKind =
  /** A 부기: N번근저당권변경, N번전세권변경 (the amount or the terms). */
  | 'amendment'
  /** 임의경매개시결정, 강제경매개시결정. */
  | 'auction'
  /** N번…등기말소. */
  | 'cancellation'
  /** 가처분. */
  | 'injunction'
  /** 전세권설정. */
  | 'jeonse'
  /** 임차권설정: a lease registered by agreement, with its 임차보증금. */
  | 'lease'
  /** 주택임차권, by 임차권등기명령. */
  | 'lease_registration'
  /** 근저당권설정, 저당권설정. */
  | 'mortgage'
  /** Recognised, not judged: 등기명의인표시변경, 환매특약, … */
  | 'other'
  /** 소유권보존. */
  | 'ownership_preservation'
  /** 소유권이전, 소유권일부이전. */
  | 'ownership_transfer'
  /** A 부기: N번근저당권부근질권, 근질권설정 (a right on the right). */
  | 'pledge'
  /** 가압류. */
  | 'provisional_attachment'
  /** 소유권이전청구권가등기 and other 가등기. */
  | 'provisional_registration'
  /** A 부기: N번근저당권이전, N번전세권이전 (the holder). */
  | 'right_transfer'
  /** 압류. */
  | 'seizure'
  /** 지상권설정, 구분지상권설정. */
  | 'surface_right'
  /** 신탁, or a 소유권이전 whose cause is 신탁. */
  | 'trust'
  /** The purpose could not be read. */
  | 'unknown';

/** A section of the registry's entries. On the wire each value is its name, in lower case as it always was. */
export type RegistrySection =
  /** 갑구 (소유권에 관한 사항). */
  | 'ownership'
  /** 을구 (소유권 이외의 권리에 관한 사항). */
  | 'rights';

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

/**
 * The kinds of live entries the signals flag, most serious first: the RegistryEntryKind values of the same names. On
 * the wire each value is its name, in lower case.
 */
export type RiskFlagKind =
  /** A 경매 is under way. */
  | 'auction'
  /** Someone claims it (가처분). */
  | 'injunction'
  /** A lease registered before the tenant ranks before them (임차권설정). */
  | 'lease'
  /** A previous tenant's deposit was not returned (임차권등기명령). */
  | 'lease_registration'
  /** A creditor attached it (가압류). */
  | 'provisional_attachment'
  /** Someone claims it (가등기). */
  | 'provisional_registration'
  /** The state seized the property (압류). */
  | 'seizure'
  /** A 지상권 registered before the tenant ranks before them. */
  | 'surface_right'
  /** It is held in trust: the owner the tenant meets may not be entitled to lease it. */
  | 'trust';

/**
 * Why a task failed: the errorCode and lastErrorCode of issuance and OCR tasks, and a TaskEvent's. One
 * enum for both kinds, so that a selection of errorCode on both members of TaskUpdate (as
 * nestTasksUpdated's clients make) stays valid: GraphQL requires fields of the same name in fragments
 * on a union's members to have the same type. Each value says which kind of task it fails. On the
 * wire each value is its name, the same string errorCode carried when it was a String.
 */
export type TaskErrorCode =
  /**
   * Issuance: the registry bot failed: it could not start, a step failed (a timeout, the registry
   * site's 5xx), the property does not exist, or it returned no PDF. Retried with backoff, but for a
   * property that does not exist.
   */
  | 'AUTOMATION_FAILED'
  /** OCR: no result within OCR_MAX_WAIT. Not retried. */
  | 'CALLBACK_TIMEOUT'
  /**
   * Issuance, only on rows of the original system, where a task could be committed without its
   * message. A task and its job are now inserted in one transaction, so no new task gets it.
   */
  | 'DISPATCH_FAILED'
  /** Issuance: the document was paid for already by another request. Never retried: a retry could pay twice. */
  | 'DUPLICATE_PAYMENT'
  /** OCR: the engine's job failed, or the engine no longer knows it. Not retried. */
  | 'ENGINE_FAILED'
  /**
   * Both kinds: saving the result failed. An issuance is retried, and its stored PDF deleted when it
   * finally fails.
   */
  | 'SAVE_FAILED'
  /** Both kinds: the task waited PENDING too long for a worker, and the next request replaced it. */
  | 'STALE_PENDING'
  /**
   * OCR: the engine could not take the document (network, 5xx, queue full: retried with backoff) or
   * refused it (4xx: not retried).
   */
  | 'SUBMIT_FAILED'
  /**
   * Both kinds: a panic or an unclassified error, or a PROCESSING task whose job was lost (ended by the
   * next request or by the reconciler). Not retried.
   */
  | 'UNKNOWN'
  /** OCR: the engine declared the document unreadable. Not retried. */
  | 'UNREADABLE'
  /** Issuance: storing the PDF failed (the object store's 5xx, a timeout, a refusal). A 5xx or timeout is retried. */
  | 'UPLOAD_FAILED';

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

/**
 * What a VerdictReason is about. The verdict's reasons use all but the last group; an alert's reasons (Alert.reasons,
 * COULD_NOT_VERIFY) use these and the last group. On the wire each value is its name.
 */
export type VerdictReasonCode =
  /** The printed 소재지 is another property's (WRONG_DOCUMENT). */
  | 'ADDRESS_MISMATCH'
  /** The 소재지 read from a page image differs from the nest's address. */
  | 'ADDRESS_MISREAD'
  /** A 근저당권 or 전세권 with no amount read. */
  | 'AMOUNT_MISSING'
  /** An amount was printed but did not parse. */
  | 'AMOUNT_UNREAD'
  /** A blank space of a row or more inside 갑구 or 을구: an entry whited out or erased. */
  | 'BLANK_ROW'
  /** A 말소 or a 부기 names a purpose its target's rank does not have; the target is not taken as cancelled or changed. */
  | 'CANCELLATION_MISMATCH'
  /** A 말소 whose named purpose was not read cancels a key entry by its rank alone. */
  | 'CANCELLATION_UNCHECKED'
  /** An uploaded copy whose 열람일시 was not read (or was read as a time after the copy was uploaded: misread, or altered). */
  | 'COPY_UNDATED'
  /** A key fact was not taken as read (see RegistryEntry.corrections). */
  | 'CORRECTED_FACT'
  /** A key entry's 접수 date was not read. */
  | 'DATE_MISSING'
  /** The 접수 dates contradict the register's order or the copy's date: one was misread. */
  | 'DATE_ORDER'
  /** 을구 is printed with neither an entry nor 기록사항 없음 read. */
  | 'EMPTY_SECTION'
  /** Alerts only: a COMPLETE read lacks entries the previous COMPLETE read had. */
  | 'ENTRIES_MISSING'
  /** A holder's name or number was not read as a name and a number. */
  | 'HOLDER_GARBLED'
  /** An entry with no right holder read. */
  | 'HOLDER_MISSING'
  /** A note: a struck-through row known only from its 말소. */
  | 'INFERRED_ENTRY'
  /** A key entry was read with low confidence. */
  | 'LOW_CONFIDENCE'
  /** The OCR's confidence over a page is low (UNREADABLE). */
  | 'LOW_PAGE_QUALITY'
  /** -- 이하여백 -- was not found: the end of the document was not read. */
  | 'MISSING_END'
  /** A 표제부, 갑구 or 을구 heading was not found. */
  | 'MISSING_HEADING'
  /** The footers print more pages than were read. */
  | 'MISSING_PAGE'
  /** The file holds a second document after the first's end (-- 이하여백 --); only the first was read. */
  | 'MORE_DOCUMENTS'
  /**
   * Nothing of a registry certificate's form was read from a page read with confidence (NOT_A_REGISTRY). On an alert,
   * also a NOT_A_REGISTRY read's verdict when it gave no other reason.
   */
  | 'NOT_A_REGISTRY'
  /** No 갑구 or 을구 entry was read (UNREADABLE). */
  | 'NO_ENTRIES'
  /** No 소유권 entry was read, so no owner (UNREADABLE). */
  | 'NO_OWNER'
  /** Alerts only: the issuance or the OCR failed, so there was no read to judge. */
  | 'NO_READ'
  /** An uploaded copy printed more than 7 days ago: what was registered since is not in it. */
  | 'OLD_COPY'
  /** The ownership entries could not be followed (a 지분 passed on by a holder who holds none). */
  | 'OWNERSHIP_UNRESOLVED'
  /** Alerts only: the read was PARTIAL and its verdict gave no other reason. */
  | 'PARTIAL'
  /** A 순위번호 is missing: an entry was not read. */
  | 'RANK_GAP'
  /** A 순위번호 was inferred where nothing confirms it. */
  | 'RANK_GUESSED'
  /** A page image is covered in specks: characters may be misread. */
  | 'SPECKED_COPY'
  /** A note: a 말소 names the entry, but no strike line was seen through it. */
  | 'STRIKE_NOT_SEEN'
  /** Struck through on the page, but no 말소 names it. */
  | 'STRIKE_ONLY'
  /** The 주요 등기사항 요약 and the document's body disagree on a live entry or owner. */
  | 'SUMMARY_MISMATCH'
  /** A 주요 등기사항 요약 was printed but not read in full. */
  | 'SUMMARY_UNREAD'
  /** An uploaded PDF's text layer and its page images disagree on a key fact. */
  | 'TEXT_LAYER_MISMATCH'
  /** An uploaded PDF's text layer could not be checked against its page images. */
  | 'TEXT_LAYER_UNCHECKED'
  /** The 고유번호 is another property's (WRONG_DOCUMENT). */
  | 'UNIQUE_NO_MISMATCH'
  /** The 고유번호 differs from the nest's in a digit or two: likely misread. */
  | 'UNIQUE_NO_MISREAD'
  /** The 고유번호 was not read: the document cannot be matched to the nest. */
  | 'UNIQUE_NO_MISSING'
  /** Lines of a row were read but not its first line: an entry was not read. */
  | 'UNPLACED_ROW'
  /** Alerts only: the read was UNREADABLE and its verdict gave no other reason. */
  | 'UNREADABLE'
  /** Text printed in 갑구 or 을구 on a page image was not read (faint text too). */
  | 'UNREAD_TEXT'
  /** A live entry whose 등기목적 was not read. */
  | 'UNRECOGNIZED_ENTRY'
  /** Alerts only: the read was WRONG_DOCUMENT and its verdict gave no other reason. */
  | 'WRONG_DOCUMENT';

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

export type AnalysisRefFragment = { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind };

export type AnalysisEntryFragment = { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> };

export type CopyCheckFragment = { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: RegistrySection, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> };

export type RegistryAnalysisQueryVariables = Exact<{
  id: string | number;
  deposit?: number | null | undefined;
  price?: number | null | undefined;
}>;


export type RegistryAnalysisQuery = { nest: { id: string, copyVerification: { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: RegistrySection, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> } | null, alerts: { nodes: Array<{ id: string, kind: AlertKind, message: string, ocrTask: { id: string } | null }> }, registryAnalysis: { source: DocumentSource, parserVersion: number, analyzedAt: string, verdict: RegistryVerdict, advice: string, error: string | null, ocrTask: { id: string }, file: { id: string }, reasons: Array<{ code: VerdictReasonCode, message: string, section: RegistrySection | null, rank: string | null, note: boolean }>, verification: { id: string, status: CopyVerificationStatus, message: string | null, file: { id: string }, differences: Array<{ kind: CopyDifferenceKind, section: RegistrySection, rank: string, purpose: string, afterCopy: boolean, serious: boolean, message: string, copyEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null, registryEntry: { section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> } | null }> } | null, registry: { warnings: Array<string>, printedAt: string | null, title: { address: string, uniqueNo: string, buildingName: string, buildingNumber: string, unitNumber: string, areaM2: number }, ownership: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> }>, rights: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind, received: string | null, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ role: string, name: string, share: string | null }> }> } | null, findings: { ownership: { since: string | null, recentTransfer: boolean, owners: Array<{ name: string, role: string, share: string | null }>, entries: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind }> }, mortgages: { total: number, entries: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind }> }, jeonse: { total: number, entries: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind }> }, flags: Array<{ kind: RiskFlagKind, total: number | null, entries: Array<{ section: RegistrySection, rank: string, purpose: string, kind: RegistryEntryKind }> }>, ratio: { value: number, mortgages: number, jeonse: number, leases: number, deposit: number, price: number } | null } } | null }, watchBudget: { verificationLimit: number, verificationsRemaining: number } };

export type NestTasksQueryVariables = Exact<{
  id: string | number;
  first?: number | null | undefined;
}>;


export type NestTasksQuery = { nest: { id: string, title: string, address: string, registryUniqueNo: string, createdAt: string, issuanceTasks: { nodes: Array<{ id: string, version: number, ocrTask: { id: string, version: number } | null }> } } };

export type IssuanceTaskQueryVariables = Exact<{
  id: string | number;
}>;


export type IssuanceTaskQuery = { issuanceTask: { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null } };

export type OcrTaskQueryVariables = Exact<{
  id: string | number;
}>;


export type OcrTaskQuery = { ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } };

export type OcrPagesQueryVariables = Exact<{
  id: string | number;
}>;


export type OcrPagesQuery = { ocrTask: { id: string, pages: Array<{ page: number, text: string, confidence: number }> | null } };

export type UploadVerdictQueryVariables = Exact<{
  id: string | number;
}>;


export type UploadVerdictQuery = { ocrTask: { id: string, analysis: { verdict: RegistryVerdict, reasons: Array<{ message: string }> } | null } };

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
    | { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null }
    | { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null }
   };

export type RequestIssuanceMutationVariables = Exact<{
  nestId: string | number;
}>;


export type RequestIssuanceMutation = { requestIssuance: { reused: boolean, task: { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null } } | null };

export type UploadRegistryMutationVariables = Exact<{
  nestId: string | number;
  file: File;
}>;


export type UploadRegistryMutation = { uploadRegistry: { reused: boolean, ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

export type UploadRegistryPagesMutationVariables = Exact<{
  nestId: string | number;
  pages: Array<File> | File;
}>;


export type UploadRegistryPagesMutation = { uploadRegistryPages: { reused: boolean, ocrTask: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

export type RequestOcrMutationVariables = Exact<{
  fileId: string | number;
}>;


export type RequestOcrMutation = { requestOcr: { reused: boolean, task: { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null } } | null };

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

export type TaskEventFieldsFragment = { from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string };

export type IssuanceFieldsFragment = { __typename: 'IssuanceTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, file: { id: string, size: number, url: string } | null };

export type OcrFieldsFragment = { __typename: 'OcrTask', id: string, status: TaskStatus, errorCode: TaskErrorCode | null, errorMessage: string | null, attempt: number, maxAttempts: number, lastErrorCode: TaskErrorCode | null, nextRetryAt: string | null, createdAt: string, startedAt: string | null, finishedAt: string | null, updatedAt: string, version: number, pageCount: number | null, events: Array<{ from: TaskStatus | null, to: TaskStatus, errorCode: TaskErrorCode | null, attempt: number, version: number, at: string }>, document: { id: string }, issuanceTask: { id: string } | null };

export type WatchEntryFragment = { section: RegistrySection, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> };

export type WatchAlertFragment = { id: string, kind: AlertKind, severity: AlertSeverity, message: string, createdAt: string, acknowledgedAt: string | null, before: { section: RegistrySection, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, after: { section: RegistrySection, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, reasons: Array<{ code: VerdictReasonCode, message: string }> };

export type WatchQueryVariables = Exact<{
  nestId: string | number;
}>;


export type WatchQuery = { nest: { watch: { contractDate: string | null, balanceDate: string | null, moveInDate: string | null, everyDays: number | null, until: string | null, checks: Array<{ id: string, purpose: WatchPurpose, date: string, runAt: string, status: WatchCheckStatus, note: string | null }> }, registryChecks: Array<{ id: string, verdict: RegistryCheckVerdict, outcome: CheckOutcome, createdAt: string, alerts: Array<{ id: string }> }>, alerts: { nodes: Array<{ id: string, kind: AlertKind, severity: AlertSeverity, message: string, createdAt: string, acknowledgedAt: string | null, before: { section: RegistrySection, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, after: { section: RegistrySection, rank: string, purpose: string, amountLabel: string | null, amount: number | null, cancelled: boolean, holders: Array<{ name: string }> } | null, reasons: Array<{ code: VerdictReasonCode, message: string }> }> } }, watchBudget: { month: string, limit: number, used: number, remaining: number } };

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
    alerts(first: 20) {
      nodes {
        id
        kind
        message
        ocrTask {
          id
        }
      }
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
  watchBudget {
    verificationLimit
    verificationsRemaining
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
export const UploadVerdictDocument = new TypedDocumentString(`
    query UploadVerdict($id: ID!) {
  ocrTask(id: $id) {
    id
    analysis {
      verdict
      reasons {
        message
      }
    }
  }
}
    `) as unknown as TypedDocumentString<UploadVerdictQuery, UploadVerdictQueryVariables>;
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