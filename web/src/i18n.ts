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
  'signin.help': 'Paste a bearer token (a JWT). In development, `make run` prints a dev token for user "dev" and a console link; make others with `.data/bin/dungji token --user NAME` (a server started with the same DATA_DIR accepts them).',
  'signin.submit': 'Sign in',
  'signin.checking': 'Checking…',
  'signin.empty': 'Paste a token first.',
  'signin.rejected': 'The server did not accept this token: {reason}',
  'signin.again': 'The server does not accept this token ({reason}): it has expired, or it was signed with another secret. Sign in again.',

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
  'nest.upload': 'Or analyse a copy you have (a PDF, or a photo of each page, up to 20 MiB):',
  'nest.uploadPages': 'the {n} photos of the pages',
  'nest.uploadPagesRefused': 'The {n} photos were not accepted: {message}. Nothing was stored.',
  'nest.uploadHint': 'It is read and judged, but a copy is not the registry: once read, verify it against the registry.',
  'nest.uploading': 'Uploading {name}…',
  'nest.uploaded': 'Uploaded {name}: it is being read.',
  'nest.uploadRead': 'Uploaded {name}: read. Its analysis is below.',
  'nest.uploadFailed': 'Uploaded {name}: it could not be read. Its task below says why.',
  'nest.uploadReused': 'You uploaded {name} before: its read is the one shown.',
  'nest.uploadTooLarge': 'it is larger than 20 MiB',
  'nest.uploadPagesTooLarge': 'they are larger than 20 MiB together',
  'nest.uploadRefused': '{name} was not accepted: {message}. Nothing was stored.',
  'watch.noRead': 'no read (the document was not obtained or not read)',
  'nest.reused': 'An issuance of this nest was already under way: reused it instead of starting another.',
  'timeline.title': 'Live timeline',
  'timeline.empty': 'No tasks yet. “Issue registry document” starts one.',
  'timeline.subscriptionFailed': 'Live updates of this nest failed ({reason}); the page re-reads it every 2 s instead.',

  'task.issuance': 'Registry document',
  'task.ocr': 'OCR (reading the text)',
  'task.upload': 'A copy you uploaded',
  'task.openUpload': 'Open the file as stored (PDF)',
  'task.id': 'task {id}',
  'task.copy': 'Copy',
  'task.copyId': 'Copy task id {id}',
  'task.copied': 'Copied',
  'task.copyFailed': 'Could not copy: select the id (one click) and copy it',
  'task.attempt': 'attempt {n}/{max}',
  'task.attemptFailed': 'attempt {n}/{max} failed',
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

  'analysis.title': 'Registry analysis',
  'analysis.intro': 'What the registry document says about the risks of a lease, read from its OCR text. Check it against the PDF before you sign.',
  'analysis.waiting': 'The analysis appears here once the document is issued and its text read (OCR).',
  'analysis.loading': 'Loading the analysis…',
  'analysis.failed': 'The analysis could not be loaded: {reason}',
  'analysis.source': 'From OCR task {id}, analysed {at} (parser v{v}).',
  'analysis.printed': 'The copy was printed {at}.',
  'analysis.undated': 'When the copy was printed could not be read.',
  'analysis.unreadable': 'No entry of the document could be read: {error}',
  'analysis.owner': 'Current owner',
  'analysis.ownerUnknown': 'Not read from the document.',
  'analysis.since': 'since {date}',
  'analysis.share': 'share {share}',
  'analysis.recentTransfer': 'Recent transfer',
  'analysis.recentTransferHelp': 'The owner changed less than two years ago. A new owner leasing at a deposit close to the price is a common sign of a 깡통전세 (deposit at risk): look closer.',
  'analysis.mortgages': 'Mortgages (근저당권): 채권최고액 total',
  'analysis.mortgagesHelp': 'The most the lenders can claim ahead of a later tenant in an auction.',
  'analysis.jeonse': '전세금 total (전세권)',
  'analysis.none': 'none',
  'analysis.entries': 'Entries',
  'analysis.flags': 'Risk flags',
  'analysis.noFlags': 'None of 압류, 가압류, 가처분, 가등기, 경매개시결정, 신탁 or 임차권등기명령 is live on this registry.',
  'analysis.flagTotal': 'amount {amount}',
  'analysis.rank': 'rank {rank}',
  'analysis.section.ownership': '갑구',
  'analysis.section.rights': '을구',
  'analysis.warnings': 'Parser notes ({n}): what could not be read with confidence',
  'analysis.allEntries': 'All entries as read (갑구 {a}, 을구 {b})',
  'analysis.cancelled': 'cancelled',
  'analysis.ratioTitle': 'Debt ratio',
  'analysis.ratioIntro': 'Enter your deposit and the property’s price (in won) to see how much of the price what ranks before you (mortgages, 전세권, registered leases) and your deposit take together.',
  'analysis.deposit': 'Deposit (보증금)',
  'analysis.price': 'Price (매매가)',
  'analysis.amountHint': 'In won, digits only.',
  'analysis.example': 'e.g. {n}',
  'analysis.amountInvalid': 'Enter a whole amount in won (0 or more, at most 15 digits).',
  'analysis.calculate': 'Calculate',
  'analysis.ratioNeedBoth': 'Enter both the deposit and the price to see the ratio.',
  'analysis.ratioBusy': 'Calculating…',
  'analysis.ratio': 'Debt ratio {p}',
  'analysis.ratioFormula': '(mortgages {m} + 전세금 {j} + registered leases {l} + deposit {d}) ÷ price {p}',
  'analysis.ratioHigh': 'Above 70%',
  'analysis.ratioHighHelp': 'Mortgages and your deposit exceed 70% of the price: in an auction the deposit may not be repaid in full.',
  'analysis.ratioOk': 'At or below 70% of the price.',
  'analysis.verdict.COMPLETE': 'Read in full',
  'analysis.verdict.COMPLETE.help': 'The registry’s document, issued for this nest, was read in full and nothing in it was guessed. Read in full is not “safe”: what follows is what the registry says — read the flags and the ratio.',
  'analysis.verdict.COPY_COMPLETE': 'The copy reads completely — but a copy is not the registry',
  'analysis.verdict.COPY_COMPLETE.help': 'An entry can be whited out of a copy, or its text altered. Verify it against the registry (one registry document is issued) before relying on it.',
  'analysis.verdict.NOT_A_REGISTRY': 'This is not a registry certificate',
  'analysis.verdict.NOT_A_REGISTRY.help': 'The document was read, and it has nothing of a 등기사항전부증명서: no 표제부, 갑구, 을구 or 고유번호. A lease contract or another paper cannot be checked here: issue the registry, or upload the certificate itself.',
  'analysis.sourceIssued': 'The registry’s document, issued by this service from the registry office.',
  'analysis.sourceUploaded': 'A copy you uploaded: it is not the registry itself.',
  'verify.button': 'Verify this copy against the registry',
  'verify.checkedCopy': 'The copy you uploaded, checked against this registry document',
  'verify.hint': 'A registry document is issued for this nest and compared with the copy, entry by entry.',
  'verify.left': 'Each check buys one: {left} of {limit} left this month.',
  'verify.pending': 'Checking the copy against the registry: its document is being issued and read…',
  'verify.MATCHES': '✓ The copy matches the registry, entry by entry.',
  'verify.DIFFERS': '⚠ This copy differs from the registry',
  'verify.COULD_NOT_VERIFY': 'The copy could not be checked',
  'verify.again': 'Verify again',
  'verify.copy': 'The copy shows',
  'verify.registry': 'The registry has',
  'verify.nothing': '— nothing —',
  'verify.afterCopy': 'registered after the copy was printed',
  'verify.serious': 'hidden risk',
  'readings.other': 'Another reading of this nest: {verdict}',
  'analysis.verdict.PARTIAL': 'Read only in part: do not rely on it yet',
  'analysis.verdict.PARTIAL.help': 'What is listed below was found, but something not listed may still be in the document. Re-issue the document, or upload a clearer copy (the registry office’s PDF rather than a photo).',
  'analysis.verdict.UNREADABLE': 'The document could not be read',
  'analysis.verdict.UNREADABLE.help': 'Nothing can be concluded from it — least of all that the property is clean. Re-issue the document, or upload a clearer copy (a PDF, or a flat, sharp, well-lit photo of every page).',
  'analysis.verdict.WRONG_DOCUMENT': 'This is another property’s registry',
  'analysis.verdict.WRONG_DOCUMENT.help': 'Its 고유번호 is not this nest’s. Check the nest’s 고유번호, then re-issue or upload the registry of this property.',
  'analysis.verdict.notes': 'Notes ({n})',
  'reason.NO_ENTRIES': 'No entry of 갑구 or 을구 was read.',
  'reason.NOT_A_REGISTRY': 'Nothing of a registry’s form was read.',
  'reason.NO_OWNER': 'No ownership entry was read: the owner is unknown.',
  'reason.LOW_PAGE_QUALITY': 'A page was read with low confidence.',
  'reason.SPECKED_COPY': 'A page is covered in specks: characters may be misread.',
  'reason.UNIQUE_NO_MISMATCH': 'The 고유번호 is another property’s.',
  'reason.UNIQUE_NO_MISREAD': 'The 고유번호 differs in a digit or two: probably misread.',
  'reason.UNIQUE_NO_MISSING': 'The 고유번호 was not read.',
  'reason.MISSING_HEADING': 'A section heading (표제부, 갑구 or 을구) was not found.',
  'reason.MISSING_END': 'The end of the document (이하여백) was not read.',
  'reason.RANK_GAP': 'A 순위번호 is missing: an entry was not read.',
  'reason.UNPLACED_ROW': 'Part of a row was read without its first line: an entry was not read.',
  'reason.EMPTY_SECTION': '을구 was printed but neither an entry nor “기록사항 없음” was read.',
  'reason.MISSING_PAGE': 'The page footers count more pages than were read.',
  'reason.UNREAD_TEXT': 'Text printed in 갑구 or 을구 was not read.',
  'reason.BLANK_ROW': 'A blank space inside 갑구 or 을구: an entry may have been whited out.',
  'reason.RANK_GUESSED': 'A 순위번호 was inferred, not read.',
  'reason.LOW_CONFIDENCE': 'A key entry or number was read with low confidence.',
  'reason.AMOUNT_UNREAD': 'An amount was printed but not read.',
  'reason.AMOUNT_MISSING': 'A 근저당권 or 전세권 has no amount read.',
  'reason.HOLDER_MISSING': 'An entry has no right holder read.',
  'reason.HOLDER_GARBLED': 'A holder’s name or number was not read cleanly.',
  'reason.DATE_MISSING': 'A key entry’s 접수 date was not read.',
  'reason.UNRECOGNIZED_ENTRY': 'A live entry’s purpose (등기목적) was not recognised.',
  'reason.INFERRED_ENTRY': 'A struck-through entry is known only from its 말소.',
  'reason.STRIKE_ONLY': 'An entry is struck through, but no 말소 names it.',
  'reason.STRIKE_NOT_SEEN': 'A 말소 names an entry, but no strike line was seen through it.',
  'reason.OLD_COPY': 'The copy was printed long ago: later entries are not on it.',
  'reason.COPY_UNDATED': 'When the copy was printed (열람일시) was not read.',
  'reason.CANCELLATION_MISMATCH': 'A 말소 names a purpose its target does not have.',
  'reason.CANCELLATION_UNCHECKED': 'A 말소 cancels a key entry by its rank alone.',
  'reason.OWNERSHIP_UNRESOLVED': 'Who owns the property could not be followed through the entries.',
  'reason.ADDRESS_MISMATCH': 'The printed 소재지 is another property’s.',
  'reason.ADDRESS_MISREAD': 'The 소재지 read differs from the nest’s address.',
  'reason.DATE_ORDER': 'The 접수 dates contradict the register’s order: one was misread.',
  'reason.SUMMARY_MISMATCH': 'The summary page (주요 등기사항 요약) disagrees with the body.',
  'reason.SUMMARY_UNREAD': 'The summary page was not read in full.',
  'reason.MORE_DOCUMENTS': 'The file holds more than one document: only the first was read.',
  'reason.TEXT_LAYER_MISMATCH': 'The PDF’s text and its page images disagree on a key fact.',
  'reason.TEXT_LAYER_UNCHECKED': 'The PDF’s text could not be checked against its page images.',
  'reason.CORRECTED_FACT': 'A key fact was corrected, not read as printed: a guess.',
  'reason.NO_READ': 'There was no read to judge: the issuance or the OCR failed.',
  'reason.ENTRIES_MISSING': 'This copy lacks entries an earlier complete read had.',
  'reason.PARTIAL': 'The document was read in part.',
  'reason.UNREADABLE': 'The document could not be read.',
  'reason.WRONG_DOCUMENT': 'The document is another property’s.',
  'analysis.partialFindings': 'Found in the part that could be read. Anything not listed may still be in the document.',
  'analysis.noFlagsFound': 'None found in what could be read — this does not mean there are none.',
  'analysis.noneFound': 'none found in what was read',

  'flag.auction': 'Auction ordered',
  'flag.auction.help': 'A court ordered the property sold at auction: a tenant’s deposit competes with every creditor.',
  'flag.seizure': 'Seizure',
  'flag.seizure.help': 'The state (e.g. for unpaid taxes) or a creditor seized the property; it may be sold to pay the debt.',
  'flag.provisional_attachment': 'Provisional attachment',
  'flag.provisional_attachment.help': 'A creditor froze the property ahead of a court ruling on its claim; it can lead to an auction.',
  'flag.injunction': 'Injunction (disposal ban)',
  'flag.injunction.help': 'Someone claims the property and a court barred the owner from disposing of it; a later lease may not hold against them.',
  'flag.provisional_registration': 'Provisional registration',
  'flag.provisional_registration.help': 'Someone reserved the right to take ownership (e.g. a sale promise); once exercised, a later tenant may lose the lease.',
  'flag.trust': 'Held in trust',
  'flag.trust.help': 'A trust company holds the property: a lease without the trustee’s consent may not be protected.',
  'flag.lease_registration': 'Lease registration order',
  'flag.lease_registration.help': 'A previous tenant’s deposit was not returned and a court registered their lease: the landlord has failed to repay before.',
  'flag.other': 'Other entry',

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
  'code.ocr.UNREADABLE': 'The document could not be read: the file is damaged, has no readable text, or has a page too large or too dense to be a registry page.',
  'code.ocr.ENGINE_FAILED': 'The OCR engine’s job failed or was lost.',
  'code.ocr.CALLBACK_TIMEOUT': 'The OCR engine did not deliver its result in time. The document is kept: run OCR again, no new issuance is needed.',
  'code.ocr.SAVE_FAILED': 'The text was read but could not be saved. Run OCR again.',
  'code.ocr.UNKNOWN': 'An unexpected error stopped the OCR task. It was recorded for the operators.',
  'code.ocr.STALE_PENDING': 'The OCR task waited too long without starting. Run OCR again.',
  'watch.title': 'Registry watch',
  'watch.intro': 'Set the dates that matter: the registry is issued again on the morning of each (09:00 in Seoul) and the day after moving in, and compared with the last complete read. Changes become alerts.',
  'watch.contract': 'Contract date',
  'watch.balance': 'Balance payment (잔금)',
  'watch.moveIn': 'Move-in (전입)',
  'watch.every': 'Also every N days',
  'watch.until': 'until',
  'watch.save': 'Save watch',
  'watch.cancel': 'Cancel watch',
  'watch.saved': 'Watch saved.',
  'watch.cancelled': 'Watch cancelled.',
  'watch.budget': 'Scheduled issuances in {month}: {used} of {limit}.',
  'watch.schedule': 'Schedule',
  'watch.noChecks': 'No checks scheduled.',
  'watch.alerts': 'Alerts',
  'watch.noAlerts': 'No alerts.',
  'watch.history': 'Checks',
  'watch.noHistory': 'No registry read yet.',
  'watch.alertCount': 'alert(s)',
  'watch.before': 'Before',
  'watch.after': 'After',
  'watch.ack': 'Acknowledge',
  'watch.acked': 'Acknowledged {at}',
  'watch.cancelledEntry': 'cancelled (말소)',
  'watch.kind.NEW_ENTRY': 'New right registered',
  'watch.kind.COPY_DIFFERS': 'Your copy differs from the registry',
  'watch.kind.NEW_OWNER': 'New owner',
  'watch.kind.CANCELLED': 'Cancelled',
  'watch.kind.AMOUNT_CHANGED': 'Amount changed',
  'watch.kind.COULD_NOT_VERIFY': 'Could not verify',
  'watch.purpose.CONTRACT': 'contract',
  'watch.purpose.BALANCE': 'balance payment',
  'watch.purpose.MOVE_IN': 'move-in',
  'watch.purpose.AFTER_MOVE_IN': 'day after move-in',
  'watch.purpose.PERIODIC': 'periodic',
  'watch.outcome.BASELINE': 'first complete read',
  'watch.outcome.UNCHANGED': 'no change',
  'watch.outcome.CHANGED': 'changed',
  'watch.outcome.COULD_NOT_VERIFY': 'could not verify',
  'api.DATE_IN_PAST': 'That date is in the past: {message}',
  'api.BUDGET_EXCEEDED': 'Over your monthly budget: {message}',
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
  'signin.help': 'Bearer 토큰(JWT)을 붙여 넣으세요. 개발 환경에서는 `make run`이 사용자 "dev"의 토큰과 콘솔 링크를 출력합니다. 다른 사용자의 토큰은 `.data/bin/dungji token --user 이름`으로 만듭니다(같은 DATA_DIR로 시작한 서버가 받아들입니다).',
  'signin.submit': '로그인',
  'signin.checking': '확인 중…',
  'signin.empty': '먼저 토큰을 붙여 넣으세요.',
  'signin.rejected': '서버가 이 토큰을 받아들이지 않았습니다: {reason}',
  'signin.again': '서버가 이 토큰을 받아들이지 않습니다({reason}): 만료되었거나 다른 비밀 키로 서명되었습니다. 다시 로그인하세요.',

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
  'nest.upload': '가지고 있는 사본 분석 (PDF, 또는 각 쪽의 사진, 20MiB 이하):',
  'nest.uploadPages': '{n}쪽의 사진',
  'nest.uploadPagesRefused': '사진 {n}장을 받을 수 없습니다: {message}. 아무것도 저장되지 않았습니다.',
  'nest.uploadHint': '읽고 판단하지만 사본은 등기부 자체가 아닙니다: 읽은 뒤 등기부와 대조하세요.',
  'nest.uploading': '{name} 올리는 중…',
  'nest.uploaded': '{name}을(를) 올렸습니다. 읽는 중입니다.',
  'nest.uploadRead': '{name}을(를) 올려 다 읽었습니다. 분석은 아래에 있습니다.',
  'nest.uploadFailed': '{name}을(를) 올렸지만 읽지 못했습니다. 아래 작업에 이유가 있습니다.',
  'nest.uploadReused': '{name}은(는) 이미 올린 사본입니다. 그때 읽은 결과를 보여 줍니다.',
  'nest.uploadTooLarge': '20MiB보다 큽니다',
  'nest.uploadPagesTooLarge': '합쳐서 20MiB보다 큽니다',
  'nest.uploadRefused': '{name}은(는) 받을 수 없습니다: {message}. 아무것도 저장되지 않았습니다.',
  'watch.noRead': '판독 없음 (문서를 받지 못했거나 읽지 못함)',
  'nest.reused': '이 둥지의 발급이 이미 진행 중이어서 새로 시작하지 않고 그 작업을 이어서 보여 줍니다 (reused).',
  'timeline.title': '실시간 진행 상황',
  'timeline.empty': '아직 작업이 없습니다. "등기사항전부증명서 발급"을 누르면 시작됩니다.',
  'timeline.subscriptionFailed': '이 둥지의 실시간 업데이트가 실패했습니다({reason}). 대신 2초마다 다시 읽습니다.',

  'task.issuance': '등기사항전부증명서',
  'task.ocr': 'OCR (글자 판독)',
  'task.upload': '올린 사본',
  'task.openUpload': '저장된 파일 열기 (PDF)',
  'task.id': '작업 {id}',
  'task.copy': '복사',
  'task.copyId': '작업 ID {id} 복사',
  'task.copied': '복사됨',
  'task.copyFailed': '복사하지 못했습니다. ID를 클릭해 선택한 뒤 복사하세요',
  'task.attempt': '시도 {n}/{max}',
  'task.attemptFailed': '시도 {n}/{max} 실패',
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

  'analysis.title': '등기부 분석',
  'analysis.intro': 'OCR로 읽은 등기사항전부증명서에서 임대차 계약의 위험 요소를 정리했습니다. 계약 전에 PDF 원본과 대조하세요.',
  'analysis.waiting': '문서가 발급되고 글자 판독(OCR)이 끝나면 여기에 분석이 표시됩니다.',
  'analysis.loading': '분석을 불러오는 중…',
  'analysis.failed': '분석을 불러오지 못했습니다: {reason}',
  'analysis.source': 'OCR 작업 {id}, {at} 분석 (파서 v{v}).',
  'analysis.printed': '열람일시 {at}.',
  'analysis.undated': '열람일시를 읽지 못했습니다.',
  'analysis.unreadable': '문서의 등기 항목을 하나도 읽지 못했습니다: {error}',
  'analysis.owner': '현재 소유자',
  'analysis.ownerUnknown': '문서에서 읽지 못했습니다.',
  'analysis.since': '{date}부터',
  'analysis.share': '지분 {share}',
  'analysis.recentTransfer': '최근 소유권 이전',
  'analysis.recentTransferHelp': '2년 안에 소유자가 바뀌었습니다. 새 소유자가 매매가에 가까운 보증금으로 임대하는 것은 깡통전세의 흔한 징후이니 더 확인하세요.',
  'analysis.mortgages': '근저당권 채권최고액 합계',
  'analysis.mortgagesHelp': '경매가 되면 금융기관이 뒤의 세입자보다 먼저 받아 갈 수 있는 최대 금액입니다.',
  'analysis.jeonse': '전세금 합계 (전세권)',
  'analysis.none': '없음',
  'analysis.entries': '해당 등기',
  'analysis.flags': '위험 신호',
  'analysis.noFlags': '압류, 가압류, 가처분, 가등기, 경매개시결정, 신탁, 임차권등기명령이 하나도 없습니다 (말소된 것 제외).',
  'analysis.flagTotal': '금액 {amount}',
  'analysis.rank': '순위번호 {rank}',
  'analysis.section.ownership': '갑구',
  'analysis.section.rights': '을구',
  'analysis.warnings': '판독 참고 사항 ({n}): 확실히 읽지 못한 부분',
  'analysis.allEntries': '읽어 낸 전체 등기 (갑구 {a}, 을구 {b})',
  'analysis.cancelled': '말소',
  'analysis.ratioTitle': '부채 비율',
  'analysis.ratioIntro': '보증금과 매매가(원)를 입력하면 근저당과 보증금이 매매가에서 차지하는 비율을 계산합니다.',
  'analysis.deposit': '보증금 (deposit)',
  'analysis.price': '매매가 (price)',
  'analysis.amountHint': '원 단위, 숫자만.',
  'analysis.example': '예: {n}',
  'analysis.amountInvalid': '0 이상의 원 단위 금액을 입력하세요 (최대 15자리).',
  'analysis.calculate': '계산',
  'analysis.ratioNeedBoth': '보증금과 매매가를 모두 입력하면 비율이 표시됩니다.',
  'analysis.ratioBusy': '계산 중…',
  'analysis.ratio': '부채 비율 {p}',
  'analysis.ratioFormula': '(근저당 {m} + 전세금 {j} + 등기된 임차보증금 {l} + 보증금 {d}) ÷ 매매가 {p}',
  'analysis.ratioHigh': '70% 초과',
  'analysis.ratioHighHelp': '근저당과 보증금이 매매가의 70%를 넘습니다. 경매가 되면 보증금을 다 돌려받지 못할 수 있습니다.',
  'analysis.ratioOk': '매매가의 70% 이하입니다.',
  'analysis.verdict.COMPLETE': '전체 판독 완료',
  'analysis.verdict.COMPLETE.help': '이 둥지를 위해 발급한 등기부를 빠짐없이 읽었고, 추측한 곳이 없습니다. "전체 판독"은 "안전"이라는 뜻이 아닙니다. 아래는 등기부의 내용입니다. 위험 신호와 비율을 확인하세요.',
  'analysis.verdict.COPY_COMPLETE': '사본은 모두 읽었습니다 — 하지만 사본은 등기부가 아닙니다',
  'analysis.verdict.COPY_COMPLETE.help': '사본은 항목을 지우거나 글자를 고칠 수 있습니다. 믿기 전에 등기부와 대조하세요(등기부 한 통을 발급합니다).',
  'analysis.verdict.NOT_A_REGISTRY': '등기사항전부증명서가 아닙니다',
  'analysis.verdict.NOT_A_REGISTRY.help': '문서를 읽었지만 표제부, 갑구, 을구, 고유번호가 없습니다. 임대차계약서 같은 다른 서류는 여기서 확인할 수 없습니다. 등기부를 발급하거나 증명서 자체를 올리세요.',
  'analysis.sourceIssued': '이 서비스가 등기소에서 발급한 등기부입니다.',
  'analysis.sourceUploaded': '올린 사본입니다. 등기부 자체가 아닙니다.',
  'verify.button': '이 사본을 등기부와 대조하기',
  'verify.checkedCopy': '올린 사본을 이 등기부와 대조한 결과',
  'verify.hint': '이 둥지의 등기부를 발급해 사본과 항목마다 대조합니다.',
  'verify.left': '대조할 때마다 한 통을 발급합니다: 이번 달 {limit}회 중 {left}회 남음.',
  'verify.pending': '사본을 등기부와 대조하는 중: 등기부를 발급해 읽고 있습니다…',
  'verify.MATCHES': '✓ 사본이 등기부와 항목마다 일치합니다.',
  'verify.DIFFERS': '⚠ 이 사본은 등기부와 다릅니다',
  'verify.COULD_NOT_VERIFY': '사본을 대조하지 못했습니다',
  'verify.again': '다시 대조하기',
  'verify.copy': '사본',
  'verify.registry': '등기부',
  'verify.nothing': '— 없음 —',
  'verify.afterCopy': '사본 출력 후 등기됨',
  'verify.serious': '숨은 위험',
  'readings.other': '이 둥지의 다른 판독: {verdict}',
  'analysis.verdict.PARTIAL': '일부만 판독됨: 아직 믿지 마세요',
  'analysis.verdict.PARTIAL.help': '아래에 나온 것은 실제로 찾은 것이지만, 나오지 않은 것이 문서에 있을 수 있습니다. 다시 발급하거나 더 선명한 사본(사진보다 등기소 PDF)을 올리세요.',
  'analysis.verdict.UNREADABLE': '문서를 읽지 못했습니다',
  'analysis.verdict.UNREADABLE.help': '이 문서로는 아무것도 판단할 수 없습니다. 특히 "문제없음"이라는 뜻이 아닙니다. 다시 발급하거나 더 선명한 사본(PDF, 또는 모든 쪽을 평평하고 선명하게 밝은 곳에서 찍은 사진)을 올리세요.',
  'analysis.verdict.WRONG_DOCUMENT': '다른 부동산의 등기부입니다',
  'analysis.verdict.WRONG_DOCUMENT.help': '고유번호가 이 둥지와 다릅니다. 둥지의 고유번호를 확인한 뒤 이 부동산의 등기부를 다시 발급하거나 올리세요.',
  'analysis.verdict.notes': '참고 ({n})',
  'reason.NO_ENTRIES': '갑구나 을구의 등기 내용을 하나도 읽지 못했습니다.',
  'reason.NOT_A_REGISTRY': '등기부의 형식을 하나도 읽지 못했습니다.',
  'reason.NO_OWNER': '소유권 등기를 읽지 못해 소유자를 알 수 없습니다.',
  'reason.LOW_PAGE_QUALITY': '한 쪽이 낮은 신뢰도로 읽혔습니다.',
  'reason.SPECKED_COPY': '한 쪽에 얼룩과 점이 많아 글자를 잘못 읽었을 수 있습니다.',
  'reason.UNIQUE_NO_MISMATCH': '고유번호가 다른 부동산의 것입니다.',
  'reason.UNIQUE_NO_MISREAD': '고유번호가 한두 자리 다릅니다. 잘못 읽었을 가능성이 큽니다.',
  'reason.UNIQUE_NO_MISSING': '고유번호를 읽지 못했습니다.',
  'reason.MISSING_HEADING': '표제부, 갑구 또는 을구 제목을 찾지 못했습니다.',
  'reason.MISSING_END': '문서의 끝(이하여백)을 읽지 못했습니다.',
  'reason.RANK_GAP': '빠진 순위번호가 있습니다. 읽지 못한 등기가 있습니다.',
  'reason.UNPLACED_ROW': '첫 줄 없이 읽힌 행이 있습니다. 읽지 못한 등기가 있습니다.',
  'reason.EMPTY_SECTION': '을구가 인쇄되어 있지만 등기도 “기록사항 없음”도 읽지 못했습니다.',
  'reason.MISSING_PAGE': '쪽 번호가 읽은 쪽보다 많은 쪽을 가리킵니다.',
  'reason.UNREAD_TEXT': '갑구나 을구에 인쇄된 글자 중 읽지 못한 부분이 있습니다.',
  'reason.BLANK_ROW': '갑구나 을구 안에 빈 공간이 있습니다. 등기가 지워졌을 수 있습니다.',
  'reason.RANK_GUESSED': '순위번호를 읽지 못하고 추정했습니다.',
  'reason.LOW_CONFIDENCE': '중요한 등기나 숫자를 낮은 신뢰도로 읽었습니다.',
  'reason.AMOUNT_UNREAD': '인쇄된 금액을 읽지 못했습니다.',
  'reason.AMOUNT_MISSING': '근저당권이나 전세권의 금액을 읽지 못했습니다.',
  'reason.HOLDER_MISSING': '권리자를 읽지 못한 등기가 있습니다.',
  'reason.HOLDER_GARBLED': '권리자의 이름이나 번호를 제대로 읽지 못했습니다.',
  'reason.DATE_MISSING': '중요한 등기의 접수일을 읽지 못했습니다.',
  'reason.UNRECOGNIZED_ENTRY': '살아 있는 등기의 등기목적을 알아보지 못했습니다.',
  'reason.INFERRED_ENTRY': '말소된 등기가 말소 등기를 통해서만 확인됩니다.',
  'reason.STRIKE_ONLY': '줄이 그어진 등기가 있지만 이를 말소하는 등기가 없습니다.',
  'reason.STRIKE_NOT_SEEN': '말소 등기가 가리키는 등기에 말소선이 보이지 않습니다.',
  'reason.OLD_COPY': '오래전에 출력된 사본입니다. 그 뒤의 등기는 실려 있지 않습니다.',
  'reason.COPY_UNDATED': '사본의 열람일시를 읽지 못했습니다.',
  'reason.CANCELLATION_MISMATCH': '말소 등기가 가리키는 등기의 목적이 맞지 않습니다.',
  'reason.CANCELLATION_UNCHECKED': '말소 등기가 순위번호만으로 중요한 등기를 말소합니다.',
  'reason.OWNERSHIP_UNRESOLVED': '등기를 따라가도 누가 소유자인지 확인할 수 없습니다.',
  'reason.ADDRESS_MISMATCH': '인쇄된 소재지가 다른 부동산의 것입니다.',
  'reason.ADDRESS_MISREAD': '읽은 소재지가 둥지의 주소와 다릅니다.',
  'reason.DATE_ORDER': '접수일이 등기 순서와 맞지 않습니다. 하나를 잘못 읽었습니다.',
  'reason.SUMMARY_MISMATCH': '주요 등기사항 요약이 본문과 다릅니다.',
  'reason.SUMMARY_UNREAD': '주요 등기사항 요약을 다 읽지 못했습니다.',
  'reason.MORE_DOCUMENTS': '파일에 문서가 둘 이상 있습니다. 첫 문서만 읽었습니다.',
  'reason.TEXT_LAYER_MISMATCH': 'PDF의 글자와 쪽 이미지가 중요한 사실에서 다릅니다.',
  'reason.TEXT_LAYER_UNCHECKED': 'PDF의 글자를 쪽 이미지와 대조하지 못했습니다.',
  'reason.CORRECTED_FACT': '중요한 사실을 인쇄된 대로가 아니라 고쳐서 읽었습니다. 추정입니다.',
  'reason.NO_READ': '판단할 읽기 결과가 없습니다. 발급이나 OCR이 실패했습니다.',
  'reason.ENTRIES_MISSING': '이 사본에는 앞서 완전히 읽은 등기부에 있던 등기가 없습니다.',
  'reason.PARTIAL': '문서를 일부만 읽었습니다.',
  'reason.UNREADABLE': '문서를 읽지 못했습니다.',
  'reason.WRONG_DOCUMENT': '다른 부동산의 문서입니다.',
  'analysis.partialFindings': '읽을 수 있었던 부분에서 찾은 것입니다. 나오지 않은 것도 문서에 있을 수 있습니다.',
  'analysis.noFlagsFound': '읽은 부분에서는 찾지 못했습니다. 없다는 뜻은 아닙니다.',
  'analysis.noneFound': '읽은 부분에서는 없음',

  'flag.auction': '경매개시결정',
  'flag.auction.help': '법원이 경매를 시작했습니다. 보증금이 모든 채권자와 배당 순서를 다투게 됩니다.',
  'flag.seizure': '압류',
  'flag.seizure.help': '국가·지자체(세금 체납 등)나 채권자가 부동산을 압류했습니다. 빚을 갚기 위해 매각될 수 있습니다.',
  'flag.provisional_attachment': '가압류',
  'flag.provisional_attachment.help': '채권자가 판결 전에 부동산을 묶어 두었습니다. 경매로 이어질 수 있습니다.',
  'flag.injunction': '가처분',
  'flag.injunction.help': '누군가 이 부동산에 대한 권리를 주장해 법원이 처분을 금지했습니다. 그 뒤의 임대차는 보호받지 못할 수 있습니다.',
  'flag.provisional_registration': '가등기',
  'flag.provisional_registration.help': '다른 사람이 소유권을 가져갈 권리(매매예약 등)를 미리 확보했습니다. 본등기가 되면 뒤의 세입자는 임차권을 잃을 수 있습니다.',
  'flag.trust': '신탁',
  'flag.trust.help': '신탁회사가 부동산을 소유하고 있습니다. 수탁자(신탁회사)의 동의 없는 임대차는 보호받지 못할 수 있습니다.',
  'flag.lease_registration': '임차권등기명령',
  'flag.lease_registration.help': '이전 세입자가 보증금을 돌려받지 못해 법원 명령으로 임차권을 등기했습니다. 임대인이 보증금을 돌려주지 못한 적이 있다는 뜻입니다.',
  'flag.other': '기타 등기',

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
  'code.ocr.UNREADABLE': '문서를 읽을 수 없습니다. 파일이 손상되었거나, 읽을 수 있는 글자가 없거나, 등기부 한 쪽이라기에는 너무 크거나 빽빽한 쪽이 있습니다.',
  'code.ocr.ENGINE_FAILED': 'OCR 엔진의 작업이 실패했거나 유실되었습니다.',
  'code.ocr.CALLBACK_TIMEOUT': 'OCR 엔진이 제시간에 결과를 보내지 않았습니다. 문서는 보관되어 있으니 다시 발급할 필요 없이 OCR을 다시 실행하세요.',
  'code.ocr.SAVE_FAILED': '글자는 읽었지만 저장하지 못했습니다. OCR을 다시 실행하세요.',
  'code.ocr.UNKNOWN': '예상하지 못한 오류로 OCR 작업이 중단되었습니다. 운영자를 위해 기록되었습니다.',
  'code.ocr.STALE_PENDING': 'OCR 작업이 시작되지 않은 채 너무 오래 기다렸습니다. OCR을 다시 실행하세요.',
  'watch.title': '등기부 감시',
  'watch.intro': '중요한 날짜를 정하면 그날 아침(서울 09:00)과 전입 다음 날 등기부를 다시 발급해 마지막으로 완전히 읽은 등기부와 비교합니다. 바뀐 점은 알림이 됩니다.',
  'watch.contract': '계약일',
  'watch.balance': '잔금일',
  'watch.moveIn': '전입일',
  'watch.every': 'N일마다 추가로',
  'watch.until': '종료일',
  'watch.save': '감시 저장',
  'watch.cancel': '감시 취소',
  'watch.saved': '감시를 저장했습니다.',
  'watch.cancelled': '감시를 취소했습니다.',
  'watch.budget': '{month} 예약 발급: {limit}건 중 {used}건.',
  'watch.schedule': '일정',
  'watch.noChecks': '예약된 확인이 없습니다.',
  'watch.alerts': '알림',
  'watch.noAlerts': '알림이 없습니다.',
  'watch.history': '확인 기록',
  'watch.noHistory': '아직 읽은 등기부가 없습니다.',
  'watch.alertCount': '건의 알림',
  'watch.before': '이전',
  'watch.after': '이후',
  'watch.ack': '확인함',
  'watch.acked': '{at}에 확인함',
  'watch.cancelledEntry': '말소됨',
  'watch.kind.NEW_ENTRY': '새 권리 등기',
  'watch.kind.COPY_DIFFERS': '사본이 등기부와 다름',
  'watch.kind.NEW_OWNER': '소유자 변경',
  'watch.kind.CANCELLED': '말소',
  'watch.kind.AMOUNT_CHANGED': '금액 변경',
  'watch.kind.COULD_NOT_VERIFY': '확인 불가',
  'watch.purpose.CONTRACT': '계약일',
  'watch.purpose.BALANCE': '잔금일',
  'watch.purpose.MOVE_IN': '전입일',
  'watch.purpose.AFTER_MOVE_IN': '전입 다음 날',
  'watch.purpose.PERIODIC': '정기',
  'watch.outcome.BASELINE': '첫 완전한 판독',
  'watch.outcome.UNCHANGED': '변경 없음',
  'watch.outcome.CHANGED': '변경됨',
  'watch.outcome.COULD_NOT_VERIFY': '확인 불가',
  'api.DATE_IN_PAST': '지난 날짜입니다: {message}',
  'api.BUDGET_EXCEEDED': '이번 달 한도를 넘습니다: {message}',
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

/** tIn is t in a given language: a term shown next to its translation. */
export function tIn(l: Lang, key: Key): string {
  return dictionaries[l][key] ?? en[key] ?? key;
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

/**
 * formatDate renders the date of a date-only RFC 3339 time (the registry's
 * dates are midnight UTC): the same day in every time zone.
 */
export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  return new Intl.DateTimeFormat(current === 'ko' ? 'ko-KR' : 'en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(d);
}

const wonDigits = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** formatWon renders an amount in won with thousands separators: 360,000,000원. */
export function formatWon(n: number): string {
  return `${wonDigits.format(n)}원`;
}

/**
 * formatWonWords renders an amount as Korean reads it, in 조, 억 and 만:
 * 360,000,000 → 3억 6,000만원; '' below 10,000 (the digits say it all).
 */
export function formatWonWords(n: number): string {
  if (!Number.isFinite(n) || n < 10_000) return '';
  const units: [number, string][] = [
    [1e12, '조'],
    [1e8, '억'],
    [1e4, '만'],
  ];
  const parts: string[] = [];
  let rest = Math.floor(n);
  for (const [size, name] of units) {
    const q = Math.floor(rest / size);
    if (q > 0) parts.push(`${wonDigits.format(q)}${name}`);
    rest -= q * size;
  }
  if (rest > 0) parts.push(wonDigits.format(rest));
  return `${parts.join(' ')}원`;
}

/**
 * formatPercent renders a ratio as a percentage with one or two decimals
 * (0.7245 → 72.45%, 0.8 → 80.0%): the server rounds it to 4 places, so the
 * percentage is exact and 0.7001 never shows as a misleading 70.0%.
 */
export function formatPercent(ratio: number): string {
  return `${new Intl.NumberFormat('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 2 }).format(ratio * 100)}%`;
}

/** formatBytes renders a size as KB/MB. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < 1024 * 1024) return `${(n / 1024).toFixed(0)} KB`;
  return `${(n / 1024 / 1024).toFixed(1)} MB`;
}

document.documentElement.lang = current;
