package io.jdbcrepl.conflict;

import static io.jdbcrepl.conflict.Fixtures.dec;
import static io.jdbcrepl.conflict.Fixtures.nul;
import static io.jdbcrepl.conflict.Fixtures.v;
import static org.assertj.core.api.Assertions.assertThat;

import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class ValueComparisonTest {

    private static void same(Object a, Object b) {
        assertThat(ValueComparison.same(v(a), v(b))).as(a + " = " + b).isTrue();
        assertThat(ValueComparison.same(v(b), v(a))).as(b + " = " + a).isTrue();
    }

    private static void differ(Object a, Object b) {
        assertThat(ValueComparison.same(v(a), v(b))).as(a + " <> " + b).isFalse();
        assertThat(ValueComparison.same(v(b), v(a))).as(b + " <> " + a).isFalse();
    }

    @Test
    void nullEqualsNullOnly() {
        same(nul(ValueType.DECIMAL), nul(ValueType.DECIMAL));
        same(nul(ValueType.STRING), nul(ValueType.INTEGER)); // a NULL is a NULL whatever the vendor's type
        differ(nul(ValueType.INTEGER), 0);
        differ(nul(ValueType.STRING), "");
        differ(nul(ValueType.BINARY), new byte[0]);
    }

    @Test
    void numbersByValueAcrossTypes() {
        same(dec("1.0"), dec("1.00"));
        same(5, dec("5.0"));
        same(5L, 5.0);
        same(dec("0.1"), 0.1);
        same(dec("-12.50"), -12.5);
        same(Long.MAX_VALUE, new BigDecimal(Long.MAX_VALUE));
        differ(5, dec("5.01"));
        differ(dec("0.1"), 0.1f + 0.0); // a REAL widened is not 0.1
        differ(1, 2.0);
    }

    @Test
    void floatSpecials() {
        same(-0.0, 0.0);
        same(-0.0, 0);
        same(-0.0, dec("0.00"));
        same(Double.NaN, Double.NaN);
        same(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY);
        differ(Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY);
        differ(Double.NaN, 0.0);
        differ(Double.NaN, dec("0"));
        differ(Double.POSITIVE_INFINITY, Long.MAX_VALUE);
    }

    @Test
    void booleansAreOneAndZero() {
        same(true, true);
        same(true, 1);
        same(false, dec("0"));
        differ(true, false);
        differ(true, 2);
        differ(true, "true");
    }

    @Test
    void timestampsWithZoneByInstantWithoutByLocalValue() {
        OffsetDateTime a = OffsetDateTime.parse("2026-03-01T10:00:00.123456+02:00");
        same(a, OffsetDateTime.parse("2026-03-01T08:00:00.123456Z"));
        differ(a, OffsetDateTime.parse("2026-03-01T10:00:00.123456Z"));
        differ(a, OffsetDateTime.parse("2026-03-01T08:00:00.123457Z"));
        LocalDateTime l = LocalDateTime.parse("2026-03-01T10:00:00.5");
        same(l, LocalDateTime.parse("2026-03-01T10:00:00.500"));
        differ(l, LocalDateTime.parse("2026-03-01T10:00:00.500001"));
        differ(a, a.toLocalDateTime()); // without a zone the instant is unknown
        same(new TypedValue(ValueType.DATE, LocalDate.of(2026, 1, 2)), new TypedValue(ValueType.DATE,
                LocalDate.parse("2026-01-02")));
        differ(new TypedValue(ValueType.DATE, LocalDate.of(2026, 1, 2)), LocalDateTime.of(2026, 1, 2, 0, 0));
        same(new TypedValue(ValueType.TIME, LocalTime.parse("10:00")),
                new TypedValue(ValueType.TIME, LocalTime.parse("10:00:00.000")));
        differ(new TypedValue(ValueType.TIME, LocalTime.parse("10:00")),
                new TypedValue(ValueType.TIME, LocalTime.parse("10:00:00.000001")));
    }

    @Test
    void binaryByContent() {
        same(new byte[] {1, 2, 3}, new byte[] {1, 2, 3});
        same(new byte[0], new byte[0]);
        differ(new byte[] {1, 2, 3}, new byte[] {1, 2});
        differ(new byte[] {1, 2, 3}, new byte[] {1, 2, 4});
    }

    @Test
    void stringsExactlyAndCharPaddingOnlyWhenAsked() {
        same("Müller", "Müller");
        differ("a", "A");
        differ("ab", "ab  ");
        differ("ab", " ab");
        differ("", nul(ValueType.STRING));
        assertThat(ValueComparison.samePadded(v("ab"), v("ab   "))).isTrue();
        assertThat(ValueComparison.samePadded(v("ab"), v(" ab"))).isFalse();
        assertThat(ValueComparison.samePadded(v(5), v(dec("5.0")))).isTrue();
        assertThat(ValueComparison.samePadded(nul(ValueType.STRING), v(""))).isFalse();
        differ(5, "5");
    }

    @Test
    void uuidAndJson() {
        UUID u = UUID.fromString("123e4567-e89b-12d3-a456-426614174000");
        same(new TypedValue(ValueType.UUID_, u), "123E4567-E89B-12D3-A456-426614174000");
        same(new TypedValue(ValueType.UUID_, u), new TypedValue(ValueType.UUID_, UUID.fromString(u.toString())));
        differ(new TypedValue(ValueType.UUID_, u), "123e4567");
        TypedValue j = new TypedValue(ValueType.JSON, "{\"a\": 1, \"b\": [1.0, \"x\"]}");
        same(j, new TypedValue(ValueType.JSON, "{\"b\":[1.00,\"x\"],\"a\":1}"));
        same(j, "{\"b\":[1,\"x\"],\"a\":1}");
        differ(j, new TypedValue(ValueType.JSON, "{\"a\":1,\"b\":[\"x\",1]}"));
        differ(new TypedValue(ValueType.JSON, "not json"), new TypedValue(ValueType.JSON, "not  json"));
    }

    @Test
    void ordering() {
        assertThat(ValueComparison.compare(v(5), v(dec("4.99")))).contains(1);
        assertThat(ValueComparison.compare(v(dec("5.0")), v(5))).contains(0);
        assertThat(ValueComparison.compare(v(-0.0), v(0.0))).contains(0);
        assertThat(ValueComparison.compare(v(Double.NEGATIVE_INFINITY), v(Long.MIN_VALUE))).contains(-1);
        assertThat(ValueComparison.compare(v(Double.NaN), v(1))).isEmpty();
        assertThat(ValueComparison.compare(v("a"), v("b"))).contains(-1);
        assertThat(ValueComparison.compare(v(OffsetDateTime.parse("2026-03-01T10:00:00+02:00")),
                v(OffsetDateTime.parse("2026-03-01T09:00:00Z")))).contains(-1);
        assertThat(ValueComparison.compare(v(LocalDateTime.parse("2026-03-01T10:00")),
                v(LocalDateTime.parse("2026-03-01T09:00")))).contains(1);
        assertThat(ValueComparison.compare(v(false), v(true))).contains(-1);
        assertThat(ValueComparison.compare(nul(ValueType.INTEGER), v(1))).isEmpty();
        assertThat(ValueComparison.compare(v(new byte[] {1}), v(new byte[] {2}))).isEmpty();
        assertThat(ValueComparison.compare(v("1"), v(1))).isEmpty();
        assertThat(ValueComparison.compare(v(OffsetDateTime.parse("2026-03-01T10:00:00Z")),
                v(LocalDateTime.parse("2026-03-01T10:00")))).isEmpty();
    }

    @Test
    void deltaArithmetic() {
        assertThat(ValueComparison.delta(v(dec("5000")), v(dec("4400")), v(dec("4900")))).contains(v(dec("5500")));
        assertThat(ValueComparison.delta(v(10), v(3), v(1))).contains(v(8L));
        assertThat(ValueComparison.delta(v(10), v(dec("3")), v(dec("4")))).contains(v(11L));
        assertThat(ValueComparison.delta(v(10), v(dec("3")), v(dec("3.5")))).isEmpty(); // not an integer
        assertThat(ValueComparison.delta(v(Long.MAX_VALUE), v(0), v(1))).isEmpty();
        assertThat(ValueComparison.delta(v(1.5), v(1), v(dec("2.25")))).contains(v(2.75));
        assertThat(ValueComparison.delta(v(dec("1.10")), v(1.0), v(2.5))).contains(v(dec("2.60")));
        for (List<TypedValue> withNull : List.of(List.of(nul(ValueType.INTEGER), v(1), v(2)),
                List.of(v(1), nul(ValueType.INTEGER), v(2)), List.of(v(1), v(2), nul(ValueType.INTEGER)))) {
            assertThat(ValueComparison.delta(withNull.get(0), withNull.get(1), withNull.get(2))).isEmpty();
        }
        assertThat(ValueComparison.delta(v("1"), v(1), v(2))).isEmpty();
        assertThat(ValueComparison.delta(v(true), v(1), v(2))).isEmpty();
        assertThat(ValueComparison.delta(v(1), v(Double.NaN), v(2))).isEmpty();
        assertThat(ValueComparison.delta(v(Double.MAX_VALUE), v(-Double.MAX_VALUE), v(Double.MAX_VALUE))).isEmpty();
    }

    // ---- equal values under representation changes compare equal

    @Property
    void decimalScaleAndTypeDoNotMatter(@ForAll long unscaled, @ForAll @IntRange(min = 0, max = 12) int scale,
            @ForAll @IntRange(min = 0, max = 6) int extra) {
        BigDecimal d = BigDecimal.valueOf(unscaled, scale);
        TypedValue a = v(d);
        TypedValue b = v(d.setScale(scale + extra));
        assertThat(ValueComparison.same(a, b)).isTrue();
        assertThat(ValueComparison.compare(a, b)).contains(0);
        if (scale == 0) {
            assertThat(ValueComparison.same(v(unscaled), b)).isTrue();
        }
        assertThat(ValueComparison.same(a, v(d.add(BigDecimal.ONE.movePointLeft(scale + extra + 1))))).isFalse();
    }

    @Property
    void aDoubleEqualsItsDecimalForm(@ForAll double d) {
        if (!Double.isFinite(d)) return;
        assertThat(ValueComparison.same(v(d), v(new BigDecimal(Double.toString(d))))).isTrue();
        assertThat(ValueComparison.same(v(d), v(new BigDecimal(Double.toString(d)).setScale(
                Math.max(0, new BigDecimal(Double.toString(d)).scale()) + 2)))).isTrue();
    }

    @Property
    void anInstantInAnyOffsetIsTheSame(@ForAll("instants") OffsetDateTime t,
            @ForAll @IntRange(min = -18 * 3600, max = 18 * 3600) int offsetSeconds) {
        OffsetDateTime moved = t.withOffsetSameInstant(ZoneOffset.ofTotalSeconds(offsetSeconds));
        assertThat(ValueComparison.same(v(t), v(moved))).isTrue();
        assertThat(ValueComparison.compare(v(t), v(moved))).contains(0);
        assertThat(ValueComparison.same(v(t), v(moved.plusNanos(1000)))).isFalse();
        assertThat(ValueComparison.compare(v(t), v(moved.plusNanos(1000)))).contains(-1);
    }

    @Property
    void copiesAreEqualAndCompareAsEqual(@ForAll("values") TypedValue a) {
        TypedValue copy = new TypedValue(a.type(), a.value() instanceof byte[] b ? b.clone() : a.value());
        assertThat(ValueComparison.same(a, copy)).isTrue();
        Optional<Integer> c = ValueComparison.compare(a, copy);
        if (c.isPresent()) assertThat(c.get()).isZero();
    }

    @Property
    void sameIsSymmetric(@ForAll("values") TypedValue a, @ForAll("values") TypedValue b) {
        assertThat(ValueComparison.same(a, b)).isEqualTo(ValueComparison.same(b, a));
        Optional<Integer> ab = ValueComparison.compare(a, b);
        Optional<Integer> ba = ValueComparison.compare(b, a);
        assertThat(ab.map(x -> -x)).isEqualTo(ba);
        if (ab.isPresent() && ab.get() == 0) {
            assertThat(ValueComparison.same(a, b)).as(a + " " + b).isTrue();
        }
    }

    @Provide
    Arbitrary<OffsetDateTime> instants() {
        return Arbitraries.longs().between(0, 4_000_000_000L).flatMap(s -> Arbitraries.integers().between(0, 999_999)
                .map(us -> OffsetDateTime.ofInstant(java.time.Instant.ofEpochSecond(s, us * 1000L), ZoneOffset.UTC)));
    }

    @Provide
    Arbitrary<TypedValue> values() {
        return Arbitraries.oneOf(
                Arbitraries.longs().between(-3, 3).map(Fixtures::v),
                Arbitraries.of("-3", "0", "0.0", "1.50", "2", "3.000").map(s -> v(new BigDecimal(s))),
                Arbitraries.of(-0.0, 0.0, 1.5, 2.0, Double.NaN, Double.POSITIVE_INFINITY).map(Fixtures::v),
                Arbitraries.of(true, false).map(Fixtures::v),
                Arbitraries.of("a", "b", "a ", "").map(Fixtures::v),
                Arbitraries.of(new byte[] {1}, new byte[] {1, 2}).map(Fixtures::v),
                instants().map(Fixtures::v),
                Arbitraries.of(ValueType.values()).map(Fixtures::nul));
    }
}
