// Task shapes as the console selects them, and the timeline: the newest
// known state of every task of a nest, whichever way it arrived
// (subscription, mutation, query) — compared by version, so a stale or
// repeated state never overwrites a newer one.

import { graphql } from './gql';
import type { IssuanceFieldsFragment, OcrFieldsFragment, OcrPagesQuery, TaskStatus } from './gql/graphql';

export type Status = TaskStatus;

/** An issuance task as the console selects it (IssuanceFields). */
export type IssuanceTask = IssuanceFieldsFragment;

/**
 * An OCR task as the console selects it (OcrFields). The file read is
 * aliased document: a union selection cannot have file as both File and File!.
 */
export type OcrTask = OcrFieldsFragment;

export type Task = IssuanceTask | OcrTask;

export type TaskEvent = Task['events'][number];

/** A page of an OCR task's text (OcrPages in nest.ts). */
export type OcrPage = NonNullable<OcrPagesQuery['ocrTask']['pages']>[number];

// The fields both kinds of task share are listed in each fragment: a
// document is one template string, which codegen reads as written.
graphql(`fragment TaskEventFields on TaskEvent { from to errorCode attempt version at }`);

graphql(`fragment IssuanceFields on IssuanceTask {
  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt
  createdAt startedAt finishedAt updatedAt version
  events { ...TaskEventFields }
  file { id size url }
}`);

graphql(`fragment OcrFields on OcrTask {
  __typename id status errorCode errorMessage attempt maxAttempts lastErrorCode nextRetryAt
  createdAt startedAt finishedAt updatedAt version
  events { ...TaskEventFields }
  pageCount
  document: file { id }
  issuanceTask { id }
}`);

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
