package io.jdbcrepl.lcr;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

/** Every value survives the change log's JSON: written, read back, equal in type and value. */
class ValueRoundTripTest {

    @Property(tries = 500)
    void anImageRoundTripsThroughJson(@ForAll("images") RowImage image) {
        RowImage back = RowImage.fromJson(image.valuesJson(), RowImage.typesFromJson(image.typesJson()));
        assertThat(back).isEqualTo(image);
    }

    @Provide
    Arbitrary<RowImage> images() {
        return Arbitraries.of(ValueType.values()).flatMap(type -> value(type).injectNull(0.15)
                .map(v -> new TypedValue(type, v)))
                .list().ofMinSize(0).ofMaxSize(12)
                .map(values -> {
                    RowImage image = new RowImage();
                    for (int i = 0; i < values.size(); i++) image.put("c" + i, values.get(i));
                    return image;
                });
    }

    private Arbitrary<?> value(ValueType type) {
        return switch (type) {
            case BOOLEAN -> Arbitraries.of(true, false);
            case INTEGER -> Arbitraries.longs();
            case DECIMAL -> Combinators.combine(Arbitraries.bigIntegers().between(
                    BigInteger.TEN.pow(40).negate(), BigInteger.TEN.pow(40)), Arbitraries.integers().between(0, 20))
                    .as(BigDecimal::new);
            case FLOAT -> Arbitraries.doubles().withSpecialValue(Double.NaN)
                    .withSpecialValue(Double.POSITIVE_INFINITY).withSpecialValue(Double.NEGATIVE_INFINITY)
                    .withSpecialValue(-0.0d).withSpecialValue(Double.MIN_VALUE).withSpecialValue(Double.MAX_VALUE);
            case STRING, JSON -> Arbitraries.strings().all().ofMaxLength(300);
            case DATE -> Arbitraries.longs().between(LocalDate.of(1, 1, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay())
                    .map(LocalDate::ofEpochDay);
            case TIME -> Arbitraries.longs().between(0, 86_399_999_999_999L).map(LocalTime::ofNanoOfDay);
            case TIMESTAMP -> Combinators.combine(
                    Arbitraries.longs().between(LocalDate.of(1, 1, 1).toEpochDay(), LocalDate.of(9999, 12, 31).toEpochDay()),
                    Arbitraries.longs().between(0, 86_399_999_999_999L))
                    .as((d, t) -> LocalDateTime.of(LocalDate.ofEpochDay(d), LocalTime.ofNanoOfDay(t)));
            case TIMESTAMPTZ -> Combinators.combine(
                    Arbitraries.longs().between(0, 4_000_000_000L), Arbitraries.integers().between(0, 999_999),
                    Arbitraries.integers().between(-18 * 3600, 18 * 3600))
                    .as((s, micros, off) -> OffsetDateTime.of(LocalDateTime.ofEpochSecond(s, micros * 1000, ZoneOffset.UTC),
                            ZoneOffset.ofTotalSeconds(off / 60 * 60)));
            case BINARY, LARGE_OBJECT -> Arbitraries.bytes().array(byte[].class).ofMaxSize(2000);
            case UUID_ -> Arbitraries.create(UUID::randomUUID);
        };
    }
}
