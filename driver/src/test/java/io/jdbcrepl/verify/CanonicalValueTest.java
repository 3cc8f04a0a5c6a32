package io.jdbcrepl.verify;

import io.jdbcrepl.lcr.ValueType;
import io.jdbcrepl.verify.CanonicalValue.KeyPart;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalValueTest {

    @Test
    void numbersByValue() {
        assertThat(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("1.0")))
                .isEqualTo(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("1.00")))
                .isEqualTo(CanonicalValue.of(ValueType.DECIMAL, BigDecimal.ONE));
        assertThat(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("0.000"))).isEqualTo("0");
        assertThat(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("1E+3"))).isEqualTo("1000");
        assertThat(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("1.5")))
                .isNotEqualTo(CanonicalValue.of(ValueType.DECIMAL, new BigDecimal("1.51")));
        assertThat(CanonicalValue.of(ValueType.FLOAT, -0.0)).isEqualTo(CanonicalValue.of(ValueType.FLOAT, 0.0));
        assertThat(CanonicalValue.of(ValueType.INTEGER, 5)).isEqualTo(CanonicalValue.of(ValueType.INTEGER, 5L));
    }

    @Test
    void timestampsWithTimeZoneByInstant() {
        assertThat(CanonicalValue.of(ValueType.TIMESTAMPTZ, OffsetDateTime.parse("2024-01-01T12:00:00+02:00")))
                .isEqualTo(CanonicalValue.of(ValueType.TIMESTAMPTZ, OffsetDateTime.parse("2024-01-01T10:00:00Z")));
    }

    @Test
    void binaryByContentAndNullIsNull() {
        assertThat(CanonicalValue.of(ValueType.BINARY, new byte[] {1, 2}))
                .isEqualTo(CanonicalValue.of(ValueType.BINARY, new byte[] {1, 2}));
        assertThat(CanonicalValue.of(ValueType.STRING, null)).isNull();
    }

    @Test
    void keysOrderNumbersByValueAndTextByCodePoint() {
        List<List<KeyPart>> keys = new ArrayList<>(List.of(
                List.of(new KeyPart(ValueType.INTEGER, "10")), List.of(new KeyPart(ValueType.INTEGER, "9")),
                List.of(new KeyPart(ValueType.INTEGER, "-3"))));
        keys.sort(CanonicalValue.keyOrder());
        assertThat(keys).extracting(k -> k.get(0).text()).containsExactly("-3", "9", "10");

        List<String> text = new ArrayList<>(List.of("b", "B", "\uFFFD", "\uD83D\uDE00", "a", "_", "Ä"));
        text.sort(CanonicalValue::compareCodePoints);
        // code point order: an emoji (U+1F600) after U+FFFD, where UTF-16 order would put it before
        assertThat(text).containsExactly("B", "_", "a", "b", "Ä", "\uFFFD", "\uD83D\uDE00");
    }
}
