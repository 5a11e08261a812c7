// Package analysis reads a 등기사항전부증명서 (registry certificate) from its
// OCR text and judges it for a tenant.
//
// Parse turns the full text of a document (its pages joined by form feeds, as
// ocr.FullText returns it) into a Registry: the 표제부 (address, building,
// unit, area, 고유번호) and every 갑구 and 을구 entry with its 순위번호, kind,
// dates, parties and amount, cancelled entries marked by the 말소 entries
// that name them. Analyze turns a Registry into Signals: the current owners
// and when they became owners, the total 채권최고액 of live 근저당권, the
// live 압류, 가압류, 가처분, 경매개시결정, 신탁, 임차권등기명령 and 가등기, the
// 전세금 total and, given a deposit and a price, the share of the price that
// mortgages and the deposit take. Every signal names the entries behind it.
//
// # The register as the office writes it
//
// Trust comes from what the registry's form guarantees, never from a
// correction. Parse reads each 등기목적 by its structure:
//
//   - only a purpose that ends in 말소 cancels, and it names its target's
//     순위번호 (3, or 3-1 for a 부기) and purpose: the entry of that rank is
//     cancelled only when it is of the kind named (a 전세권설정등기말소 does
//     not cancel a 근저당권: CANCELLATION_MISMATCH), and a main entry's 부기
//     go with it;
//   - a purpose that begins with a 순위번호 and does not end in 말소 names
//     that entry without cancelling it (Entry.Refers): a 부기 (ranked N-1)
//     changes it — 변경 its amount or terms, 이전 its holder, 근질권 puts a
//     right on it — and a 지분 purpose (2번홍길동지분전부이전,
//     2번홍길동지분가압류) concerns one holder's share (Entry.ShareOf);
//   - owners are walked through the live ownership entries with their
//     shares (CurrentOwners); only an owner's role makes an owner;
//   - a row goes on across a page break, under the next page's column
//     header;
//   - the 주요 등기사항 요약 printed after the document is a summary, not
//     entries (Registry.Summary), and Judge checks the body against it.
//
// Judge checks what the form guarantees: 접수 dates never go backwards
// along 순위번호, nor come before the 소유권보존 or after the 열람일시; the
// 고유번호 and the 소재지 are the nest's. A key fact (an amount, a holder, a
// date, a rank, the target of a 말소) taken otherwise than it was read is
// recorded on its entry (Entry.Corrections) and makes the read PARTIAL
// (CORRECTED_FACT); the form's own words (headings, labels, units) are put
// right freely. An uploaded copy's text layer is checked against its page
// images' reading (CheckTextLayer), never trusted as exact.
//
// # OCR noise
//
// The parser reads a text layer exactly and Tesseract's reading of a scanned
// page as well as it can. It tolerates:
//
//   - whitespace anywhere inside headings, labels, purposes, names and
//     numbers (【 갑 구 】, 【갑 구】, 채 권 최 고 액, 근저당권 설정, 김 민준,
//     금 360, 000, 000 원), full-width forms (１,２) and table rules read as
//     | or ㅣ;
//   - section headings read as junk ((G+)): the parser then tells 갑구 from
//     을구 by the entries' purposes and by 순위번호 starting again at 1;
//   - letters read for digits inside numbers (O o → 0, l I → 1, S → 5, and
//     B → 8 in amounts), "." read for "," in amounts, a lost thousands
//     separator (1364,000,000), a 금 read as a like syllable and a lost 원:
//     each a correction the verdict reports, but for the form's marks; a
//     letter or digit where the 금 should be is never taken for it;
//   - 년, 월, 일 misread as 넌, 윌, 알;
//   - the asterisks of a masked 주민등록번호 read as other marks (×, ㅎ, x,
//     K, +), with spaces among them and among the digits;
//   - a 등기목적 wrapped onto the next line (소유권이전청구권가 / 등기,
//     1번근저당권설정등기 / 말소), a 등기목적 read with one syllable wrong,
//     and cells spread over several lines, the other columns' text between;
//   - a 순위번호 not read, read as a mark or glued to the 등기목적: it is
//     inferred from its neighbours and from the 말소 entries that follow;
//   - an entry not read at all, as happens to a struck-through (말소) row on
//     a scan: the 말소 entry that names it ("5번가처분등기말소") stands for it,
//     marked Inferred, and gives its kind to one read as junk.
//
// An amount whose grouping is ambiguous (222000,000) is left unread rather
// than guessed, with a warning.
//
// What the text does not say cannot be recovered: a 말소 entry not read at
// all leaves the entry it cancels live, a misread 순위번호 in a 말소 marks the
// wrong entry, and a garbled amount or name is reported as read.
// Registry.Warnings lists what the parser had to guess.
//
// # The verdict
//
// Judge says how far a read can be trusted: COMPLETE (every part read with
// confidence, nothing guessed, the 고유번호 and address the nest's), PARTIAL
// (something missing, guessed, contradicted or read with low confidence),
// UNREADABLE (no entries, no owner, pages of noise), WRONG_DOCUMENT (another
// property's) or NOT_A_REGISTRY (read, and nothing of a registry's form),
// with reasons in words. Signals are a judgement only on a COMPLETE read: on any other, a
// risk not found may simply not have been read. ApplyStrikes adds the page
// image's evidence: an entry the OCR saw struck through is cancelled even
// when no 말소 naming it was read, and Judge says when the two disagree.
//
// A section's last entry lost leaves no 순위번호 gap. Judge looks for what
// else the loss leaves: lines of a row read without its first line (a
// second 접수번호 in an entry), an 을구 heading with nothing under it, fewer
// pages than the footers count, and on image pages text printed inside
// 갑구 or 을구 that no line read covers (ReadPage.Ink). A live entry lost
// whole from a copy with no ink bands leaves no trace at all: COMPLETE then
// means nothing read shows a loss.
//
// Parse never panics and takes time linear in the size of its input; input
// longer than MaxInput is refused.
package analysis
