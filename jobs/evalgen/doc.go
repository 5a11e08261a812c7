// Package evalgen writes registry certificates (등기사항전부증명서, 집합건물)
// for measuring the registry analysis on documents it was never fitted to.
//
// It shares nothing with the registry simulator (jobs/issuer) that the
// analysis is developed against: no code, another PDF library
// (signintech/gopdf), another Korean font (UnBatang, Debian's
// fonts-unfonts-core), its own layout (column widths, line heights, rules,
// red strike lines, rows continued across pages), its own word lists
// (surnames and given names, companies, lenders, trustees, streets) chosen
// apart from the simulator's, and the purposes real registries carry:
// 지분이전 and 공유자전원지분전부이전, a co-owner's share attached or
// enjoined, 근저당권변경, 근저당권이전 and 근저당권부근질권 (부기, ranked N-1),
// 전세권변경, 임차권설정, 주택임차권, 지상권설정, 가등기, 신탁, 강제 and 임의
// 경매개시결정, with their 말소. Certificates issued online carry the 주요
// 등기사항 요약 (참고용) after the document; Generate prints it on some, and
// can print one that disagrees with the body.
//
// Every document comes with its truth: the rows as printed, where each is
// on the page (for damaging a copy of it), and the key facts a tenant acts
// on. A benchmark draws documents from a fresh seed each run. No rule of the
// analysis may be written from these documents: they are the yardstick, and
// a yardstick looked at while tuning is a training set.
package evalgen
