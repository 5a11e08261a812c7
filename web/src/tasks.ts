// Task shapes as the console selects them, and the timeline: the newest
// known state of every task of a nest, whichever way it arrived
// (subscription, mutation, query) — compared by version, so a stale or
// repeated state never overwrites a newer one.

export type Status = 'PENDING' | 'PROCESSING' | 'SUCCESS' | 'FAILED';

export interface TaskEvent {
  from: Status | null;
  to: Status;
  errorCode: string | null;
  attempt: number;
  version: number;
  at: string;
}

interface TaskFields {
  id: string;
  status: Status;
  errorCode: string | null;
  errorMessage: string | null;
  attempt: number;
  maxAttempts: number;
  lastErrorCode: string | null;
  nextRetryAt: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  updatedAt: string;
  version: number;
  events: TaskEvent[];
}

export interface IssuanceTask extends TaskFields {
  __typename: 'IssuanceTask';
  file: { id: string; size: number; url: string } | null;
}

export interface OcrTask extends TaskFields {
  __typename: 'OcrTask';
  pageCount: number | null;
  /** The file read (aliased: a union selection cannot have file as both File and File!). */
  document: { id: string };
  issuanceTask: { id: string } | null;
}

export type Task = IssuanceTask | OcrTask;

export interface OcrPage {
  page: number;
  text: string;
  confidence: number;
}

const TASK_FIELDS = `id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt
  createdAt startedAt finishedAt updatedAt version
  events { from to errorCode attempt version at }`;

export const ISSUANCE_FIELDS = `fragment IssuanceFields on IssuanceTask {
  __typename ${TASK_FIELDS}
  file { id size url }
}`;

export const OCR_FIELDS = `fragment OcrFields on OcrTask {
  __typename ${TASK_FIELDS}
  pageCount
  document: file { id }
  issuanceTask { id }
}`;

export function isFinal(s: Status): boolean {
  return s === 'SUCCESS' || s === 'FAILED';
}

/** Timeline holds the newest known state of a nest's tasks. */
export class Timeline {
  readonly issuance = new Map<string, IssuanceTask>();
  readonly ocr = new Map<string, OcrTask>();
  /** Per-page OCR text, read once an OCR task is SUCCESS. */
  readonly pages = new Map<string, OcrPage[]>();
  /** When each issuance's file URL was read (presigned URLs expire). */
  readonly urlReadAt = new Map<string, number>();

  /** merge keeps task if it is newer than what is known; true if kept. */
  merge(task: Task): boolean {
    if (task.__typename === 'IssuanceTask') {
      const old = this.issuance.get(task.id);
      if (old && old.version >= task.version) return false;
      this.issuance.set(task.id, task);
      if (task.file) this.urlReadAt.set(task.id, Date.now());
    } else {
      const old = this.ocr.get(task.id);
      if (old && old.version >= task.version) return false;
      this.ocr.set(task.id, task);
    }
    return true;
  }

  version(kind: Task['__typename'], id: string): number {
    return (kind === 'IssuanceTask' ? this.issuance : this.ocr).get(id)?.version ?? 0;
  }

  /** issuances are newest first. */
  issuances(): IssuanceTask[] {
    return [...this.issuance.values()].sort(byNewest);
  }

  /**
   * ocrOf is the OCR tasks reading an issuance's document, newest first:
   * linked by issuance id, or by file id for a task without that link.
   */
  ocrOf(task: IssuanceTask): OcrTask[] {
    return [...this.ocr.values()]
      .filter((o) => o.issuanceTask?.id === task.id || (!o.issuanceTask && task.file && o.document.id === task.file.id))
      .sort(byNewest);
  }

  /** orphanOcr is OCR tasks whose issuance is not (yet) known. */
  orphanOcr(): OcrTask[] {
    return [...this.ocr.values()]
      .filter((o) => !(o.issuanceTask && this.issuance.has(o.issuanceTask.id)) && ![...this.issuance.values()].some((i) => i.file?.id === o.document.id))
      .sort(byNewest);
  }
}

function byNewest(a: { createdAt: string; id: string }, b: { createdAt: string; id: string }): number {
  const d = Date.parse(b.createdAt) - Date.parse(a.createdAt);
  return d !== 0 ? d : a.id < b.id ? 1 : -1; // ids are UUIDv7: time-ordered
}
