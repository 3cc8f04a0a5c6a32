package io.jdbcrepl.config;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class DurationTextTest {

    @ParameterizedTest
    @CsvSource({"PT20S, 20s", "PT1M30S, 1m30s", "PT0.5S, 500ms", "PT0S, 0s", "PT168H, 7d", "PT25H, 1d1h",
            "PT1H0.25S, 1h250ms", "PT2M, 2m", "PT0.0000015S, 1500ns", "PT1.000001S, 1s1000ns", "PT-1.5S, -1s500ms", "PT2562047788015215H30M7.999999999S, 106751991167300d15h30m7s999ms999999ns"})
    void writesEachUnitThatIsNotZero(String iso, String text) {
        assertThat(DurationText.of(Duration.parse(iso))).isEqualTo(text);
    }
}
