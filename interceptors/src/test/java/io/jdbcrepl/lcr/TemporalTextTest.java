package io.jdbcrepl.lcr;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.time.api.constraints.YearRange;
import org.junit.jupiter.api.Test;

import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.UUID;

import static org.assertj.core.api.Assertions.assertThat;

class TemporalTextTest {

    @Test
    void writesEveryFractionalDigitAndAlwaysTheSeconds() {
        assertThat(TemporalText.of(LocalDateTime.parse("1979-08-01T07:26:56.934633"))).isEqualTo("1979-08-01 07:26:56.934633");
        assertThat(TemporalText.of(LocalDateTime.parse("1979-08-01T07:26"))).isEqualTo("1979-08-01 07:26:00");
        assertThat(TemporalText.of(LocalDateTime.parse("1000-01-01T00:00:00.000001"))).isEqualTo("1000-01-01 00:00:00.000001");
        assertThat(TemporalText.of(LocalDateTime.parse("9999-12-31T23:59:59.999999999"))).isEqualTo("9999-12-31 23:59:59.999999999");
        assertThat(TemporalText.of(LocalTime.parse("23:59:59.5"))).isEqualTo("23:59:59.5");
        assertThat(TemporalText.of(LocalTime.MIDNIGHT)).isEqualTo("00:00:00");
        assertThat(TemporalText.of(java.sql.Timestamp.valueOf("2024-02-29 12:00:00.123456"))).isEqualTo("2024-02-29 12:00:00.123456");
        assertThat(TemporalText.of(java.sql.Time.valueOf("12:34:56"))).isEqualTo("12:34:56");
    }

    @Test
    void leavesEveryOtherValueToItsOwnBinding() {
        assertThat(TemporalText.of(null)).isNull();
        assertThat(TemporalText.of(LocalDate.of(2024, 2, 29))).isNull();
        assertThat(TemporalText.of("2024-02-29 12:00:00")).isNull();
        assertThat(TemporalText.of(UUID.randomUUID())).isNull();
        assertThat(TemporalText.of(java.time.OffsetDateTime.now())).isNull();
    }

    @Property(tries = 300)
    void readsBackAsTheSameTimestamp(@ForAll @YearRange(min = 1000, max = 9999) LocalDateTime t) {
        String text = TemporalText.of(t);
        assertThat(text).matches("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d(\\.\\d{1,9})?");
        assertThat(LocalDateTime.parse(text.replace(' ', 'T'))).isEqualTo(t);
    }
}
