// Korean and English labels. The choice is remembered in localStorage.

export type Lang = 'ko' | 'en';

const en = {
  'app.title': 'Dungji tasks',
  'app.tagline': 'Registry documents (등기사항전부증명서), issued, stored and read, live.',
  'lang.label': 'Language',
  'signout': 'Sign out',
  'signedInAs': 'Signed in as {user}',
  'skip': 'Skip to content',

  'conn.label': 'Connection',
  'conn.connecting': 'connecting…',
  'conn.live': 'live',
  'conn.reconnecting': 'reconnecting…',
  'conn.polling': 'polling',
  'conn.pollingNote': 'Live updates are unavailable (the WebSocket cannot connect). Polling: the page re-reads every 2 s and goes live again by itself once it can.',
  'conn.reconnectingNote': 'The live connection dropped. Reconnecting; the page re-reads the current state when it is back.',

  'signin.title': 'Sign in',
  'signin.token': 'Access token',
  'signin.help': 'Paste a bearer token (a JWT). In development, `make run` prints a dev token for user "dev" and a console link; make others with `go run ./server token --user NAME`.',
  'signin.submit': 'Sign in',
  'signin.checking': 'Checking…',
  'signin.empty': 'Paste a token first.',
  'signin.rejected': 'The server did not accept this token: {reason}',
  'signin.again': 'Your token is no longer accepted ({reason}). Sign in again.',

  'nests.title': 'Your nests',
  'nests.intro': 'A nest (둥지) is a property you are checking before signing a lease.',
  'nests.empty': 'No nests yet: create the first one below.',
  'nests.more': 'Load more',
  'nests.loading': 'Loading…',
  'nests.uniqueNo': '고유번호 {no}',
  'create.title': 'New nest',
  'create.submit': 'Create nest',
  'create.busy': 'Creating…',
  'create.fix': 'Check the highlighted fields.',
  'field.title': 'Title',
  'field.titleHint': 'A name for you, e.g. "Mapo two-room".',
  'field.address': 'Address',
  'field.addressHint': 'The road-name address of the property.',
  'field.uniqueNo': 'Registry unique number (고유번호)',
  'field.uniqueNoHint': '14 digits, as 1234-5678-901234 or without dashes.',
  'invalid.titleRequired': 'Enter a title.',
  'invalid.titleLong': 'The title is longer than 200 characters.',
  'invalid.addressRequired': 'Enter the address.',
  'invalid.addressLong': 'The address is longer than 500 characters.',
  'invalid.uniqueNo': 'The registry unique number must be 14 digits, as 1234-5678-901234 or without dashes.',

  'nest.back': 'All nests',
  'nest.loading': 'Loading the nest…',
  'nest.created': 'created {at}',
  'nest.issue': 'Issue registry document',
  'nest.issuing': 'Requesting…',
  'nest.issued': 'Started a new issuance.',
  'nest.reused': 'An issuance of this nest was already under way: reused it instead of starting another.',
  'timeline.title': 'Live timeline',
  'timeline.empty': 'No tasks yet. “Issue registry document” starts one.',
  'timeline.subscriptionFailed': 'Live updates of this nest failed ({reason}); the page re-reads it every 2 s instead.',

  'task.issuance': 'Registry document',
  'task.ocr': 'OCR (reading the text)',
  'task.id': 'task {id}',
  'task.attempt': 'attempt {n}/{max}',
  'task.retryIn': 'retrying in {s} s, attempt {n}/{max}',
  'task.retryNow': 'retrying now, attempt {n}/{max}',
  'task.lastError': 'last attempt failed: {code}',
  'task.requested': 'requested',
  'task.started': 'started',
  'task.finished': 'finished',
  'task.history': 'History',
  'task.event': '{from} → {to}',
  'task.eventFirst': '→ {to}',
  'task.eventAttempt': 'attempt {n}',
  'task.eventRetry': 'attempt {n} failed ({code}); retry scheduled',
  'task.eventRestart': 'attempt {n} started',
  'task.error': 'Error {code}',
  'task.download': 'Download the PDF',
  'task.size': '{size}',
  'task.pageCount': '{n} pages',
  'task.pageCount1': '1 page',
  'ocr.rerun': 'Run OCR again',
  'ocr.rerunning': 'Requesting…',
  'ocr.rerunStarted': 'OCR started again.',
  'ocr.rerunReused': 'OCR of this document was already running: reused it.',
  'ocr.pages': 'Text by page',
  'ocr.olderRuns': 'Earlier OCR runs ({n})',
  'ocr.page': 'Page {n}',
  'ocr.confidence': 'confidence {p}%',
  'ocr.loadingPages': 'Loading the text…',
  'ocr.noText': '(no text on this page)',
  'ocr.waiting': 'OCR starts when the document is issued.',

  'status.PENDING': 'PENDING',
  'status.PROCESSING': 'PROCESSING',
  'status.SUCCESS': 'SUCCESS',
  'status.FAILED': 'FAILED',

  'api.UNAUTHENTICATED': 'You are not signed in, or your token expired.',
  'api.FORBIDDEN': 'This belongs to another user.',
  'api.NOT_FOUND': 'Not found.',
  'api.BAD_USER_INPUT': 'The input is not valid.',
  'api.CONFLICT': 'This conflicts with the current state; try again.',
  'api.INTERNAL': 'The server failed (internal error). Try again later.',
  'api.RATE_LIMITED': 'Too many requests in a short time: {message}',
  'api.NETWORK': 'The server cannot be reached. Check the connection.',
  'api.other': 'Request failed: {message}',

  // Final error codes of tasks (graph/issuance.graphqls, graph/ocr.graphqls).
  'code.issuance.AUTOMATION_FAILED': 'The registry office bot could not obtain the document: the site kept failing, or the property was not found there.',
  'code.issuance.DUPLICATE_PAYMENT': 'The fee had already been paid for another request of this document, so this one stopped rather than pay twice.',
  'code.issuance.UPLOAD_FAILED': 'The document was issued but could not be stored. Nothing was kept; request it again.',
  'code.issuance.SAVE_FAILED': 'The result could not be saved. Nothing was kept; request it again.',
  'code.issuance.UNKNOWN': 'An unexpected error stopped the task. It was recorded for the operators.',
  'code.issuance.STALE_PENDING': 'The task waited too long without starting. A new request starts a new task.',
  'code.issuance.DISPATCH_FAILED': 'The task was never handed to a worker (a record from the previous system).',
  'code.ocr.SUBMIT_FAILED': 'The OCR engine could not take the document, or refused it.',
  'code.ocr.UNREADABLE': 'The document could not be read: the PDF is damaged or has no readable text.',
  'code.ocr.ENGINE_FAILED': 'The OCR engine’s job failed or was lost.',
  'code.ocr.CALLBACK_TIMEOUT': 'The OCR engine did not deliver its result in time.',
  'code.ocr.SAVE_FAILED': 'The text was read but could not be saved. Run OCR again.',
  'code.ocr.UNKNOWN': 'An unexpected error stopped the OCR task. It was recorded for the operators.',
  'code.ocr.STALE_PENDING': 'The OCR task waited too long without starting. Run OCR again.',
  'code.unknown': 'No explanation is known for this code.',
};

export type Key = keyof typeof en;

const ko: Record<Key, string> = {
  'app.title': '둥지 작업',
  'app.tagline': '등기사항전부증명서 발급, 보관, 판독을 실시간으로 확인합니다.',
  'lang.label': '언어',
  'signout': '로그아웃',
  'signedInAs': '{user} 님',
  'skip': '본문으로 건너뛰기',

  'conn.label': '연결',
  'conn.connecting': '연결 중…',
  'conn.live': '실시간',
  'conn.reconnecting': '다시 연결 중…',
  'conn.polling': '주기적 확인 (polling)',
  'conn.pollingNote': '실시간 연결(WebSocket)을 할 수 없습니다. 2초마다 상태를 다시 읽고 있으며, 연결되면 자동으로 실시간으로 돌아갑니다.',
  'conn.reconnectingNote': '실시간 연결이 끊겼습니다. 다시 연결하는 중이며, 연결되면 현재 상태를 다시 읽습니다.',

  'signin.title': '로그인',
  'signin.token': '액세스 토큰',
  'signin.help': 'Bearer 토큰(JWT)을 붙여 넣으세요. 개발 환경에서는 `make run`이 사용자 "dev"의 토큰과 콘솔 링크를 출력합니다. 다른 사용자의 토큰은 `go run ./server token --user 이름`으로 만듭니다.',
  'signin.submit': '로그인',
  'signin.checking': '확인 중…',
  'signin.empty': '먼저 토큰을 붙여 넣으세요.',
  'signin.rejected': '서버가 이 토큰을 받아들이지 않았습니다: {reason}',
  'signin.again': '토큰이 더 이상 유효하지 않습니다({reason}). 다시 로그인하세요.',

  'nests.title': '내 둥지',
  'nests.intro': '둥지는 임대차 계약 전에 확인하는 부동산 한 곳입니다.',
  'nests.empty': '아직 둥지가 없습니다. 아래에서 첫 둥지를 만드세요.',
  'nests.more': '더 보기',
  'nests.loading': '불러오는 중…',
  'nests.uniqueNo': '고유번호 {no}',
  'create.title': '새 둥지',
  'create.submit': '둥지 만들기',
  'create.busy': '만드는 중…',
  'create.fix': '표시된 항목을 확인하세요.',
  'field.title': '이름',
  'field.titleHint': '알아보기 쉬운 이름, 예: "마포 투룸".',
  'field.address': '주소',
  'field.addressHint': '부동산의 도로명 주소.',
  'field.uniqueNo': '부동산 고유번호',
  'field.uniqueNoHint': '14자리 숫자: 1234-5678-901234 형식 또는 하이픈 없이.',
  'invalid.titleRequired': '이름을 입력하세요.',
  'invalid.titleLong': '이름이 200자를 넘습니다.',
  'invalid.addressRequired': '주소를 입력하세요.',
  'invalid.addressLong': '주소가 500자를 넘습니다.',
  'invalid.uniqueNo': '부동산 고유번호는 14자리 숫자여야 합니다 (1234-5678-901234 형식 또는 하이픈 없이).',

  'nest.back': '모든 둥지',
  'nest.loading': '둥지를 불러오는 중…',
  'nest.created': '{at} 등록',
  'nest.issue': '등기사항전부증명서 발급',
  'nest.issuing': '요청 중…',
  'nest.issued': '새 발급을 시작했습니다.',
  'nest.reused': '이 둥지의 발급이 이미 진행 중이어서 새로 시작하지 않고 그 작업을 이어서 보여 줍니다 (reused).',
  'timeline.title': '실시간 진행 상황',
  'timeline.empty': '아직 작업이 없습니다. "등기사항전부증명서 발급"을 누르면 시작됩니다.',
  'timeline.subscriptionFailed': '이 둥지의 실시간 업데이트가 실패했습니다({reason}). 대신 2초마다 다시 읽습니다.',

  'task.issuance': '등기사항전부증명서',
  'task.ocr': 'OCR (글자 판독)',
  'task.id': '작업 {id}',
  'task.attempt': '시도 {n}/{max}',
  'task.retryIn': '{s}초 후 재시도, 시도 {n}/{max}',
  'task.retryNow': '지금 재시도 중, 시도 {n}/{max}',
  'task.lastError': '직전 시도 실패: {code}',
  'task.requested': '요청',
  'task.started': '시작',
  'task.finished': '종료',
  'task.history': '기록',
  'task.event': '{from} → {to}',
  'task.eventFirst': '→ {to}',
  'task.eventAttempt': '시도 {n}',
  'task.eventRetry': '시도 {n} 실패 ({code}), 재시도 예정',
  'task.eventRestart': '시도 {n} 시작',
  'task.error': '오류 {code}',
  'task.download': 'PDF 내려받기',
  'task.size': '{size}',
  'task.pageCount': '총 {n}쪽',
  'task.pageCount1': '총 1쪽',
  'ocr.rerun': 'OCR 다시 실행',
  'ocr.rerunning': '요청 중…',
  'ocr.rerunStarted': 'OCR을 다시 시작했습니다.',
  'ocr.rerunReused': '이 문서의 OCR이 이미 진행 중이어서 그 작업을 이어서 보여 줍니다 (reused).',
  'ocr.pages': '쪽별 텍스트',
  'ocr.olderRuns': '이전 OCR 실행 ({n})',
  'ocr.page': '{n}쪽',
  'ocr.confidence': '신뢰도 {p}%',
  'ocr.loadingPages': '텍스트를 불러오는 중…',
  'ocr.noText': '(이 쪽에는 글자가 없습니다)',
  'ocr.waiting': '문서가 발급되면 OCR이 시작됩니다.',

  'status.PENDING': '대기',
  'status.PROCESSING': '처리 중',
  'status.SUCCESS': '완료',
  'status.FAILED': '실패',

  'api.UNAUTHENTICATED': '로그인하지 않았거나 토큰이 만료되었습니다.',
  'api.FORBIDDEN': '다른 사용자의 항목입니다.',
  'api.NOT_FOUND': '찾을 수 없습니다.',
  'api.BAD_USER_INPUT': '입력이 올바르지 않습니다.',
  'api.CONFLICT': '현재 상태와 충돌합니다. 다시 시도하세요.',
  'api.INTERNAL': '서버 오류가 발생했습니다. 잠시 후 다시 시도하세요.',
  'api.RATE_LIMITED': '짧은 시간에 요청이 너무 많습니다: {message}',
  'api.NETWORK': '서버에 연결할 수 없습니다. 네트워크를 확인하세요.',
  'api.other': '요청 실패: {message}',

  'code.issuance.AUTOMATION_FAILED': '인터넷등기소 자동화가 문서를 받지 못했습니다. 사이트 오류가 계속되었거나 해당 부동산을 찾을 수 없습니다.',
  'code.issuance.DUPLICATE_PAYMENT': '이 문서의 수수료가 다른 요청에서 이미 결제되어, 이중 결제를 막기 위해 중단했습니다.',
  'code.issuance.UPLOAD_FAILED': '문서는 발급되었지만 저장하지 못했습니다. 남은 것이 없으니 다시 요청하세요.',
  'code.issuance.SAVE_FAILED': '결과를 저장하지 못했습니다. 남은 것이 없으니 다시 요청하세요.',
  'code.issuance.UNKNOWN': '예상하지 못한 오류로 작업이 중단되었습니다. 운영자를 위해 기록되었습니다.',
  'code.issuance.STALE_PENDING': '작업이 시작되지 않은 채 너무 오래 기다렸습니다. 다시 요청하면 새 작업이 시작됩니다.',
  'code.issuance.DISPATCH_FAILED': '작업이 작업자에게 전달되지 못했습니다 (이전 시스템의 기록).',
  'code.ocr.SUBMIT_FAILED': 'OCR 엔진이 문서를 받지 못했거나 거부했습니다.',
  'code.ocr.UNREADABLE': '문서를 읽을 수 없습니다. PDF가 손상되었거나 읽을 수 있는 글자가 없습니다.',
  'code.ocr.ENGINE_FAILED': 'OCR 엔진의 작업이 실패했거나 유실되었습니다.',
  'code.ocr.CALLBACK_TIMEOUT': 'OCR 엔진이 제시간에 결과를 보내지 않았습니다.',
  'code.ocr.SAVE_FAILED': '글자는 읽었지만 저장하지 못했습니다. OCR을 다시 실행하세요.',
  'code.ocr.UNKNOWN': '예상하지 못한 오류로 OCR 작업이 중단되었습니다. 운영자를 위해 기록되었습니다.',
  'code.ocr.STALE_PENDING': 'OCR 작업이 시작되지 않은 채 너무 오래 기다렸습니다. OCR을 다시 실행하세요.',
  'code.unknown': '이 코드에 대한 설명이 없습니다.',
};

const dictionaries: Record<Lang, Record<Key, string>> = { en, ko };
const STORAGE_KEY = 'dungji.lang';

function initialLang(): Lang {
  try {
    const saved = localStorage.getItem(STORAGE_KEY);
    if (saved === 'ko' || saved === 'en') return saved;
  } catch {
    // storage disabled: fall back to the browser's language
  }
  return navigator.language.toLowerCase().startsWith('ko') ? 'ko' : 'en';
}

let current: Lang = initialLang();

/** lang is the language labels are shown in. */
export function lang(): Lang {
  return current;
}

/** setLang switches and remembers the language. */
export function setLang(l: Lang): void {
  current = l;
  document.documentElement.lang = l;
  try {
    localStorage.setItem(STORAGE_KEY, l);
  } catch {
    // not remembered; still switched
  }
}

/** t returns a label with {name} placeholders filled from params. */
export function t(key: Key, params?: Record<string, string | number>): string {
  const s = dictionaries[current][key] ?? en[key] ?? key;
  return params ? s.replace(/\{(\w+)\}/g, (m, name: string) => (name in params ? String(params[name]) : m)) : s;
}

/** has tells whether key is a known label (for codes from the server). */
export function has(key: string): key is Key {
  return key in en;
}

/** explainCode is the plain-language explanation of a task's error code. */
export function explainCode(kind: 'issuance' | 'ocr', code: string): string {
  const key = `code.${kind}.${code}`;
  return has(key) ? t(key) : t('code.unknown');
}

/** formatTime renders an RFC 3339 time in the local zone. */
export function formatTime(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(current === 'ko' ? 'ko-KR' : 'en-GB', {
    dateStyle: 'medium',
    timeStyle: 'medium',
  }).format(d);
}

/** formatClock renders the time of day of an RFC 3339 time, to the second. */
export function formatClock(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(current === 'ko' ? 'ko-KR' : 'en-GB', { timeStyle: 'medium' }).format(d);
}

/** formatBytes renders a size as KB/MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

document.documentElement.lang = current;
