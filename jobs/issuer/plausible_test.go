package issuer

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// plausibleAddresses are nest addresses in each region, with the 동 their
// registry's 소재지번 must name.
var plausibleAddresses = []struct {
	address, lotArea string
	// perM2 bounds the price per ㎡ of 전유부분 of a sale since 2020, in won:
	// wide bands around the market of each region, set here, not taken from
	// the simulator.
	perM2Low, perM2High int64
}{
	{"서울특별시 마포구 망원로 12", "서울특별시 마포구 망원동", 8_000_000, 30_000_000},
	{"서울특별시 마포구 월드컵북로 400", "서울특별시 마포구 상암동", 8_000_000, 30_000_000},
	{"서울특별시 강남구 테헤란로 152, 103동 1502호", "서울특별시 강남구 역삼동", 8_000_000, 30_000_000},
	{"서울특별시 마포구 망원동 123-4", "서울특별시 마포구 망원동", 8_000_000, 30_000_000},
	{"경기도 성남시 분당구 판교역로 235", "경기도 성남시 분당구 백현동", 4_000_000, 14_000_000},
	{"인천광역시 연수구 송도과학로 32", "인천광역시 연수구 송도동", 2_500_000, 10_000_000},
	{"부산광역시 해운대구 센텀중앙로 79", "부산광역시 해운대구 우동", 2_500_000, 10_000_000},
	{"광주광역시 서구 상무중앙로 110", "광주광역시 서구 치평동", 2_000_000, 8_000_000},
}

// TestRegistryIsPlausibleForTheNest draws many registries per address and
// checks what a tenant would see first: the building stands at the nest's
// address, and the amounts fit a unit of that size in that region.
func TestRegistryIsPlausibleForTheNest(t *testing.T) {
	t.Parallel()
	const seeds = 400
	for _, pa := range plausibleAddresses {
		t.Run(pa.address, func(t *testing.T) {
			t.Parallel()
			var ratios []float64
			recentSales := 0
			for i := 1; i <= seeds; i++ {
				nest := fmt.Sprintf("nest-%04d", i)
				reg := Content(nest, testUniqueNo, pa.address)
				if reg.Address != pa.address {
					t.Fatalf("%s: registry address %q, want the nest's %q", nest, reg.Address, pa.address)
				}
				cur := reg.Building[len(reg.Building)-1]
				if cur.RoadAddress != pa.address {
					t.Errorf("%s: 도로명주소 %q, want %q", nest, cur.RoadAddress, pa.address)
				}
				for _, b := range reg.Building {
					if !strings.HasPrefix(b.Location, pa.lotArea+" ") {
						t.Fatalf("%s: 소재지번 %q is not in %s", nest, b.Location, pa.lotArea)
					}
				}
				area := reg.Unit[0].AreaM2
				if area < 20 || area > 200 {
					t.Fatalf("%s: 전유면적 %.2f㎡", nest, area)
				}

				var lastSale *Entry
				for j, e := range reg.Ownership {
					if e.AmountLabel != "거래가액" {
						continue
					}
					lastSale = &reg.Ownership[j]
					perM2 := float64(e.Amount) / area
					if perM2 > float64(pa.perM2High) {
						t.Errorf("%s: sold %s for %s, %.0f won/㎡ for %.2f㎡: above even today's prices (%d)",
							nest, fmtDate(e.Received), fmtWon(e.Amount), perM2, area, pa.perM2High)
					}
					if !e.Received.Before(time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)) {
						recentSales++
						if perM2 < float64(pa.perM2Low) {
							t.Errorf("%s: sold %s for %s, %.0f won/㎡ for %.2f㎡: below the region's %d",
								nest, fmtDate(e.Received), fmtWon(e.Amount), perM2, area, pa.perM2Low)
						}
					}
				}
				// What ranks ahead of a new tenant against what the unit is
				// worth now: the last sale moved by the price index.
				var secured int64
				for _, e := range reg.Rights {
					if !e.Cancelled && (e.Type == TypeMortgage || e.Type == TypeJeonse) {
						secured += e.Amount
					}
				}
				if lastSale == nil {
					continue
				}
				worth := float64(lastSale.Amount) * PriceLevel(historyEnd) / PriceLevel(lastSale.Received)
				ratio := float64(secured) / worth
				ratios = append(ratios, ratio)
				// A sale lands within ±10 % of the value and a value moves
				// with the index, so a unit mortgaged to the hilt may show a
				// little more than its value; never many times it.
				if ratio > 1.3 {
					t.Errorf("%s: %s of 채권최고액 and 전세금 on a %.2f㎡ unit last sold for %s (%s): %.1f× its value",
						nest, fmtWon(secured), area, fmtWon(lastSale.Amount), fmtDate(lastSale.Received), ratio)
				}
			}
			if recentSales < seeds/20 {
				t.Fatalf("only %d sales since 2020 in %d registries: the price check saw too few", recentSales, seeds)
			}
			slices.Sort(ratios)
			if len(ratios) < seeds/2 {
				t.Fatalf("only %d registries with a 거래가액 of %d", len(ratios), seeds)
			}
			median, p90 := ratios[len(ratios)/2], ratios[len(ratios)*9/10]
			// Most units carry a mortgage of about half their value; few are
			// free of debt, few are near the edge.
			if median < 0.15 || median > 0.8 {
				t.Errorf("median (채권최고액 + 전세금) / value = %.2f, want 0.15–0.8", median)
			}
			if p90 < 0.3 || p90 > 1.0 {
				t.Errorf("90th percentile of (채권최고액 + 전세금) / value = %.2f, want 0.3–1.0", p90)
			}
			t.Logf("%d registries: debt ratio median %.2f, p90 %.2f, max %.2f; %d sales since 2020",
				len(ratios), median, p90, ratios[len(ratios)-1], recentSales)
		})
	}
}

func TestLotDong(t *testing.T) {
	t.Parallel()
	cases := []struct{ address, want string }{
		{"서울특별시 마포구 망원로 12", "망원동"},
		{"서울특별시 마포구 망원로8길 12, 101동 203호", "망원동"},
		{"서울특별시 마포구 월드컵북로 400", "상암동"},
		{"서울특별시 강남구 테헤란로 152, 103동 1502호", "역삼동"},
		{"서울특별시 강남구 도산대로 1 (신사동)", "신사동"},
		{"서울특별시 마포구 망원동 123-4", "망원동"},
		{"서울특별시 종로구 세종대로 175", "태평로1가"},
		{"서울특별시 서대문구 연희로 10", "연희동"},
		{"서울특별시 강남구 103동 1502호", ""},
	}
	for _, tc := range cases {
		if got := lotDong(tc.address); got != tc.want {
			t.Errorf("lotDong(%q) = %q, want %q", tc.address, got, tc.want)
		}
	}
}
