package evalgen

import "fmt"

// The word lists are this package's own, chosen apart from the simulator's
// (jobs/issuer): no surname, given name, company, lender, trustee or street
// of one is in the other (a test checks the names the simulator exports).

var surnames = []string{
	"문", "양", "배", "백", "허", "남", "심", "노", "하", "곽", "성", "차", "주", "우", "구", "민", "진", "지", "엄", "채",
	"원", "천", "방", "공", "현", "함", "변", "염", "여", "추", "도", "소", "석", "선", "설", "마", "길", "연", "위", "표",
	"명", "기", "반", "라", "왕", "금", "옥", "육", "인", "맹", "제", "모", "탁", "국", "어", "은", "편", "용", "봉", "경",
}

// givenSyllables make given names two at a time.
var givenSyllables = []string{
	"가", "나", "다", "라", "보", "소", "아", "자", "차", "하", "건", "겸", "결", "경", "규", "균", "나", "늘", "단", "담",
	"도", "란", "람", "려", "록", "루", "린", "별", "봄", "빈", "산", "새", "샘", "솔", "송", "슬", "승", "시", "안", "얀",
	"언", "연", "영", "온", "완", "우", "운", "울", "웅", "원", "율", "윤", "을", "음", "의", "이", "인", "재", "정", "주",
	"진", "찬", "채", "철", "초", "태", "택", "평", "풍", "한", "해", "혁", "현", "호", "홍", "환", "효", "훈", "휘", "희",
}

// builders are the names 보존 owners are made of: a stem and a trade.
var (
	builderStems  = []string{"가온", "누리", "다솜", "라온", "미르", "보람", "새벽", "아라", "자람", "채움", "해밀", "한결", "으뜸", "별빛", "솔내", "금강", "백두", "청솔", "늘봄", "온새"}
	builderTrades = []string{"건설", "종합건설", "산업개발", "토건", "주택건설", "디앤씨"}
	builders      = [][]string{builderStems, builderTrades}
)

var lenders = []string{
	"주식회사 부산은행", "주식회사 대구은행", "주식회사 광주은행", "주식회사 경남은행", "주식회사 전북은행", "주식회사 제주은행",
	"수협은행 주식회사", "한국스탠다드차타드은행 주식회사", "주식회사 한국씨티은행", "중앙새마을금고", "동부신용협동조합",
	"주식회사 오케이저축은행", "주식회사 페퍼저축은행", "삼성생명보험 주식회사", "한화생명보험 주식회사",
}

var creditorStems = []string{"한울", "다올", "새론", "마루", "에이스", "스타", "그린", "블루", "제일", "동양"}
var creditorTrades = []string{"캐피탈", "파이낸셜", "자산관리", "대부", "상사", "물류"}

var trustees = []string{"대한토지신탁 주식회사", "생보부동산신탁 주식회사", "주식회사 하나자산신탁", "우리자산신탁 주식회사", "교보자산신탁 주식회사", "신영부동산신탁 주식회사"}

var courts = []string{"서울동부지방법원", "서울남부지방법원", "의정부지방법원", "창원지방법원", "청주지방법원", "전주지방법원", "춘천지방법원"}

var taxOffices = []string{"성동세무서", "동작세무서", "분당세무서", "해운대세무서", "유성세무서", "서귀포세무서", "청주세무서"}

// The addresses of the nests: 시도, 시군구, a street and a number, a
// building and a unit.
var places = []struct{ sido, sigungu string }{
	{"서울특별시", "성동구"}, {"서울특별시", "동작구"}, {"서울특별시", "은평구"}, {"서울특별시", "광진구"},
	{"경기도", "용인시 수지구"}, {"경기도", "고양시 덕양구"}, {"경기도", "화성시"}, {"부산광역시", "수영구"},
	{"대전광역시", "서구"}, {"울산광역시", "남구"}, {"충청북도", "청주시 흥덕구"}, {"전북특별자치도", "전주시 완산구"},
}

var streets = []string{"왕십리로", "노량진로", "통일로", "능동로", "포은대로", "화정로", "동탄대로", "광안해변로", "둔산대로", "삼산로", "직지대로", "효자로"}

func (g *gen) person() string {
	return pick(g, surnames) + pick(g, givenSyllables) + pick(g, givenSyllables)
}

func (g *gen) personNo() string {
	return fmt.Sprintf("%02d%02d%02d-*******", g.intn(40, 99), g.intn(1, 12), g.intn(1, 28))
}

func (g *gen) corpNo() string {
	return fmt.Sprintf("%06d-%07d", g.intn(110101, 285011), g.intn(1, 9999999))
}

func (g *gen) company(parts [][]string) string {
	name := pick(g, parts[0]) + pick(g, parts[1])
	if g.chance(0.5) {
		return "주식회사 " + name
	}
	return name + " 주식회사"
}

func (g *gen) lender() string { return pick(g, lenders) }

func (g *gen) creditor() string {
	return g.company([][]string{creditorStems, creditorTrades})
}

func (g *gen) street() string {
	p := pick(g, places)
	return fmt.Sprintf("%s %s %s %d", p.sido, p.sigungu, pick(g, streets), g.intn(1, 400))
}

func (g *gen) address() string {
	p := pick(g, places)
	return fmt.Sprintf("%s %s %s %d, %d동 %d호", p.sido, p.sigungu, pick(g, streets), g.intn(1, 400), g.intn(101, 130), g.intn(1, 25)*100+g.intn(1, 8))
}
