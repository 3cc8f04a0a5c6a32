package io.jdbcrepl.dialect.mysql;

import io.jdbcrepl.capture.SessionZone;
import java.time.DateTimeException;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MySqlSessionZoneTest {

    @Test
    void offsetsAsMariaDbWritesThem() {
        assertThat(MySqlSessionZone.parse("+05:00")).isEqualTo(ZoneOffset.ofHours(5));
        assertThat(MySqlSessionZone.parse("+5:00")).isEqualTo(ZoneOffset.ofHours(5));
        assertThat(MySqlSessionZone.parse("-08:00")).isEqualTo(ZoneOffset.ofHours(-8));
        assertThat(MySqlSessionZone.parse("-03:30")).isEqualTo(ZoneOffset.ofHoursMinutes(-3, -30));
    }

    @Test
    void regionsAndAbbreviationsJavaKnows() {
        assertThat(MySqlSessionZone.parse("Europe/Paris")).isEqualTo(ZoneId.of("Europe/Paris"));
        assertThat(MySqlSessionZone.parse("UTC")).isEqualTo(ZoneId.of("UTC"));
        assertThat(MySqlSessionZone.parse("EST")).isEqualTo(ZoneId.of("-05:00"));
        assertThatThrownBy(() -> MySqlSessionZone.parse("CEST")).isInstanceOf(DateTimeException.class);
    }

    @Test
    void aWallTimeOfTheZoneIsItsInstantInUtc() {
        assertThat(SessionZone.instant(LocalDateTime.parse("2024-01-01T12:00:00.123456"), ZoneOffset.ofHours(5)))
                .isEqualTo(OffsetDateTime.parse("2024-01-01T07:00:00.123456Z"));
        assertThat(SessionZone.instant(LocalDateTime.parse("2024-07-01T12:00:00"), ZoneId.of("Europe/Paris")))
                .isEqualTo(OffsetDateTime.parse("2024-07-01T10:00:00Z"));
    }
}
