package analysis

import (
	"regexp"
	"strings"
	"unicode/utf8"
)

// address is an address split into the parts a Korean address is made of:
// 시도, 시군구, then either the 읍면동 and 번지 (지번 주소) or the road and its
// number (도로명 주소), then the building's 동 and the unit's 호. A part not
// found is "".
type address struct {
	sido, sigungu string
	town, lot     string // 상암동, 12-3
	road, roadNo  string // 월드컵북로, 396
	dong, ho      string // 104, 102 (동 and 호 numbers, without 제)
}

// sidoNames are the 시도 as written in full, in short, and in their former
// names, each with the short form compared.
var sidoNames = map[string]string{
	"서울특별시": "서울", "서울시": "서울", "서울": "서울",
	"부산광역시": "부산", "부산시": "부산", "부산": "부산",
	"대구광역시": "대구", "대구시": "대구", "대구": "대구",
	"인천광역시": "인천", "인천시": "인천", "인천": "인천",
	"광주광역시": "광주", "광주": "광주",
	"대전광역시": "대전", "대전시": "대전", "대전": "대전",
	"울산광역시": "울산", "울산시": "울산", "울산": "울산",
	"세종특별자치시": "세종", "세종시": "세종", "세종": "세종",
	"경기도": "경기", "경기": "경기",
	"강원도": "강원", "강원특별자치도": "강원", "강원": "강원",
	"충청북도": "충북", "충북": "충북", "충청남도": "충남", "충남": "충남",
	"전라북도": "전북", "전북특별자치도": "전북", "전북": "전북",
	"전라남도": "전남", "전남": "전남",
	"경상북도": "경북", "경북": "경북", "경상남도": "경남", "경남": "경남",
	"제주특별자치도": "제주", "제주도": "제주", "제주": "제주",
}

var (
	addrSigungu = regexp.MustCompile(`^[가-힣]{1,6}[시군구]$`)
	addrTown    = regexp.MustCompile(`^[가-힣]{1,8}[0-9]{0,2}(?:[가-힣]{0,2})?[동읍면리가]$`)
	addrRoad    = regexp.MustCompile(`^[가-힣0-9]{1,16}(?:로|길)$`)
	addrNumber  = regexp.MustCompile(`^(?:산)?[0-9]{1,5}(?:-[0-9]{1,5})?(?:번지)?$`)
	addrDong    = regexp.MustCompile(`^제?([0-9]{1,4})동$`)
	addrHo      = regexp.MustCompile(`^제?([0-9]{1,5})호$`)
	addrFloor   = regexp.MustCompile(`^제?[0-9지하]{1,4}층$`)
)

// addrSeparators are the marks parseAddress reads as spaces.
var addrSeparators = strings.NewReplacer(",", " ", "(", " ", ")", " ", "[", " ", "]", " ", "【", " ", "】", " ")

// parseAddress splits s into its parts. It reads what it recognises and
// skips the rest (a building's name, a floor, brackets).
func parseAddress(s string) address {
	var a address
	s = addrSeparators.Replace(s)
	fields := strings.Fields(s)
	for i := 0; i < len(fields); i++ {
		f := fields[i]
		switch {
		case a.sido == "" && sidoNames[f] != "":
			a.sido = sidoNames[f]
		case addrDong.MatchString(f):
			a.dong = strings.TrimLeft(addrDong.FindStringSubmatch(f)[1], "0")
		case addrHo.MatchString(f):
			a.ho = strings.TrimLeft(addrHo.FindStringSubmatch(f)[1], "0")
		case addrFloor.MatchString(f):
		case a.road == "" && a.town == "" && addrRoad.MatchString(f):
			a.road = f
			if i+1 < len(fields) && addrNumber.MatchString(fields[i+1]) {
				a.roadNo = strings.TrimSuffix(fields[i+1], "번지")
				i++
			}
		case a.town == "" && a.road == "" && a.sigungu != "" && addrTown.MatchString(f):
			a.town = f
			if i+1 < len(fields) && addrNumber.MatchString(fields[i+1]) {
				a.lot = strings.TrimSuffix(fields[i+1], "번지")
				i++
			}
		case a.town == "" && a.road == "" && addrSigungu.MatchString(f) && utf8.RuneCountInString(f) >= 2:
			// 성남시 분당구: both are the 시군구.
			a.sigungu = strings.TrimSpace(a.sigungu + " " + f)
		}
	}
	return a
}

// addressDifference names the parts in which two addresses that both
// print them differ ("" when none does), and says whether any part could
// be compared beyond the 시도.
func addressDifference(x, y address) (parts []string, compared bool) {
	cmp := func(name, a, b string) {
		if a == "" || b == "" {
			return
		}
		compared = compared || name != "시도"
		if a != b {
			parts = append(parts, name)
		}
	}
	cmp("시도", x.sido, y.sido)
	cmp("시군구", x.sigungu, y.sigungu)
	if x.road != "" && y.road != "" {
		cmp("도로명", x.road, y.road)
		cmp("건물번호", x.roadNo, y.roadNo)
	}
	if x.town != "" && y.town != "" {
		cmp("읍면동", x.town, y.town)
		cmp("번지", x.lot, y.lot)
	}
	cmp("동", x.dong, y.dong)
	cmp("호", x.ho, y.ho)
	return parts, compared
}
