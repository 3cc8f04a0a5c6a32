package io.jdbcrepl.lcr;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * SPEC 8.8: the edge values of each database, as its capture logs them (PostgreSQL's
 * json_build_object text, MySQL's), decode to a value and encode back to a log text that decodes to
 * the same value: nothing is lost or turned into another value on the way.
 */
class EdgeValueRoundTripTest {

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource(delimiter = '|', value = {
            "TIMESTAMP|infinity|+999999999-12-31T23:59:59.999999999",
            "TIMESTAMP|-infinity|-999999999-01-01T00:00",
            "TIMESTAMPTZ|infinity|+999999999-12-31T23:59:59.999999999-18:00",
            "TIMESTAMPTZ|-infinity|-999999999-01-01T00:00+18:00",
            "DATE|infinity|+999999999-12-31",
            "DATE|-infinity|-999999999-01-01",
            "DATE|0044-03-15 BC|-0043-03-15",
            "TIMESTAMP|0044-03-15T12:30:00.5 BC|-0043-03-15T12:30:00.500",
            "TIMESTAMPTZ|0044-03-15T10:30:00.5+00:00 BC|-0043-03-15T10:30:00.500Z",
            "TIME|24:00:00|24:00:00",
            "TIME|838:59:59|838:59:59",
            "TIME|-838:59:59.5|-838:59:59.5",
            "DATE|0000-00-00|0000-00-00",
            "TIMESTAMP|0000-00-00 00:00:00|0000-00-00 00:00:00",
            "TIMESTAMPTZ|0000-00-00 00:00:00.000000|0000-00-00 00:00:00.000000",
            "DECIMAL|NaN|NaN",
            "DECIMAL|Infinity|Infinity",
            "DECIMAL|-Infinity|-Infinity",
            "BOOLEAN|yes|true",
            "BOOLEAN|off|false",
            "JSON|[1, \"a\", null]|[1, \"a\", null]",
            "JSON|42|42",
            "JSON|\"scalar\"|\"scalar\"",
    })
    void anEdgeValueDecodesAndRoundTrips(String type, String logged, String decoded) {
        ValueType t = ValueType.ofLogName(type);
        Object value = t.fromJson(logged);
        assertThat(String.valueOf(value)).isEqualTo(decoded);
        Object again = t.fromJson(t.toJson(value));
        assertThat(again).isEqualTo(value);
        // and through a whole image, as the applier reads it
        RowImage image = new RowImage();
        image.put("c", t, value);
        assertThat(RowImage.fromJson(image.valuesJson(), RowImage.typesFromJson(image.typesJson()))).isEqualTo(image);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {"DATE|infinity", "TIMESTAMP|-infinity", "TIMESTAMPTZ|infinity"})
    void infinityIsLoggedAsTheWordPostgreSqlReads(String type, String logged) {
        ValueType t = ValueType.ofLogName(type);
        assertThat(t.toJson(t.fromJson(logged))).isEqualTo(logged);
    }

    @org.junit.jupiter.api.Test
    void edgeValuesAreTheJavaValuesTheDriversUse() {
        assertThat(ValueType.DATE.fromJson("infinity")).isEqualTo(LocalDate.MAX);
        assertThat(ValueType.TIMESTAMP.fromJson("-infinity")).isEqualTo(LocalDateTime.MIN);
        assertThat(ValueType.TIMESTAMPTZ.fromJson("infinity")).isEqualTo(OffsetDateTime.MAX);
        assertThat(ValueType.DATE.fromJson("0001-01-01 BC")).isEqualTo(LocalDate.of(0, 1, 1));
        assertThat(ValueType.TIME.fromJson("23:59:59.999999")).isEqualTo(LocalTime.of(23, 59, 59, 999_999_000));
        assertThat(ValueType.DECIMAL.fromJson("NaN")).isEqualTo(Double.NaN);
        assertThat(ValueType.of(java.sql.Types.DATE, "YEAR")).isEqualTo(ValueType.INTEGER);
    }

    @org.junit.jupiter.api.Test
    void anUnknownTypeOrValueIsRefusedWithItsText() {
        assertThatThrownBy(() -> RowImage.typesFromJson("{\"c\":\"INTERVAL\"}")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("INTERVAL");
        assertThatThrownBy(() -> ValueType.BOOLEAN.fromJson("maybe")).hasMessageContaining("maybe");
        assertThatThrownBy(() -> ValueType.TIME.fromJson("noon")).hasMessageContaining("noon");
    }
}
