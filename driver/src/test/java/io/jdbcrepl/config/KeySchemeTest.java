package io.jdbcrepl.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.sql.SQLException;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** SPEC 8.2: repl.keys.step and repl.keys.offset, and the arithmetic of a node's keys. */
class KeySchemeTest {

    @Test
    void neitherKeyIsNoScheme() throws SQLException {
        assertThat(Configs.load("repl.node", "a").keyScheme()).isEmpty();
    }

    @Test
    void bothKeysMakeTheScheme() throws SQLException {
        assertThat(Configs.load("repl.node", "a", "repl.keys.step", "3", "repl.keys.offset", "2").keyScheme())
                .contains(new KeyScheme(3, 2));
        // offset == step: that node's keys are the multiples of step (SPEC 8.2 says 1..step)
        assertThat(Configs.load("repl.keys.step", "3", "repl.keys.offset", "3").keyScheme()).contains(new KeyScheme(3, 3));
    }

    @ParameterizedTest(name = "step={0} offset={1}")
    @CsvSource(nullValues = "-", value = {
        "3, 4, repl.keys.offset, '4'",
        "1, 2, repl.keys.offset, '2'",
        "0, 1, repl.keys.step, '0'",
        "3, 0, repl.keys.offset, '0'",
        "3, -1, repl.keys.offset, '-1'",
        "three, 1, repl.keys.step, 'three'",
        "3, x, repl.keys.offset, 'x'",
        "3, -, repl.keys.offset, repl.keys.step=3",
        "-, 2, repl.keys.step, repl.keys.offset=2"})
    void badValuesAreRefusedNamingKeyAndValue(String step, String offset, String named, String value) {
        Configs.fails("22023", () -> {
            java.util.Properties p = new java.util.Properties();
            if (step != null) p.setProperty("repl.keys.step", step);
            if (offset != null) p.setProperty("repl.keys.offset", offset);
            ReplConfig.load(Configs.URL, p);
        });
        SQLException e = org.assertj.core.api.Assertions.catchThrowableOfType(SQLException.class, () -> {
            java.util.Properties p = new java.util.Properties();
            if (step != null) p.setProperty("repl.keys.step", step);
            if (offset != null) p.setProperty("repl.keys.offset", offset);
            ReplConfig.load(Configs.URL, p);
        });
        assertThat(e.getMessage()).contains(named).contains(value);
    }

    @Test
    void firstAboveExamples() {
        KeyScheme s = new KeyScheme(3, 1);
        assertThat(s.firstAbove(0)).isEqualTo(1);
        assertThat(s.firstAbove(1)).isEqualTo(4);
        assertThat(s.firstAbove(100)).isEqualTo(103);
        assertThat(new KeyScheme(3, 3).firstAbove(0)).isEqualTo(3);
        assertThat(new KeyScheme(3, 3).firstAbove(3)).isEqualTo(6);
        assertThat(new KeyScheme(3, 2).firstAbove(-5)).isEqualTo(-4);
        assertThat(new KeyScheme(1, 1).firstAbove(41)).isEqualTo(42);
    }

    @Property
    void firstAboveIsTheSmallestOwnedKeyAboveTheFloor(@ForAll @IntRange(min = 1, max = 64) int step,
            @ForAll @IntRange(min = 1, max = 64) int offsetSeed, @ForAll @LongRange(min = -1_000_000, max = 1L << 50) long floor) {
        KeyScheme s = new KeyScheme(step, 1 + (offsetSeed - 1) % step);
        long v = s.firstAbove(floor);
        assertThat(v).isGreaterThan(floor).isLessThanOrEqualTo(floor + step);
        assertThat(s.owns(v)).isTrue();
        for (long below = floor + 1; below < v; below++) assertThat(s.owns(below)).isFalse();
    }

    @Property
    void twoOffsetsNeverOwnTheSameKey(@ForAll @IntRange(min = 2, max = 16) int step, @ForAll @LongRange(min = -1000, max = 1000) long key) {
        int owners = 0;
        for (int offset = 1; offset <= step; offset++) if (new KeyScheme(step, offset).owns(key)) owners++;
        assertThat(owners).isEqualTo(1);
    }

    @Test
    void theRecordRefusesWhatConfigRefuses() {
        assertThatThrownBy(() -> new KeyScheme(3, 4)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new KeyScheme(0, 0)).isInstanceOf(IllegalArgumentException.class);
    }
}
