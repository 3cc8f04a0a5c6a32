package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.lcr.TypedValue;
import io.jdbcrepl.lcr.ValueType;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.util.UUID;
import org.junit.jupiter.api.Test;

class ValueBindingTest {

    @Test
    void sameTypeIsTheSameValue() {
        BigDecimal d = new BigDecimal("4400.50");
        assertThat(ValueBinding.convert(new TypedValue(ValueType.DECIMAL, d), ValueType.DECIMAL)).isSameAs(d);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.STRING, null), ValueType.INTEGER)).isNull();
    }

    @Test
    void acrossVendorsTheDestinationTypeWins() {
        OffsetDateTime tz = OffsetDateTime.of(2026, 12, 3, 10, 0, 0, 123456000, ZoneOffset.ofHours(2));
        assertThat(ValueBinding.convert(new TypedValue(ValueType.TIMESTAMPTZ, tz), ValueType.TIMESTAMP))
                .isEqualTo(LocalDateTime.of(2026, 12, 3, 8, 0, 0, 123456000));
        UUID u = UUID.randomUUID();
        assertThat(ValueBinding.convert(new TypedValue(ValueType.UUID_, u), ValueType.STRING)).isEqualTo(u.toString());
        assertThat(ValueBinding.convert(new TypedValue(ValueType.STRING, u.toString()), ValueType.UUID_)).isEqualTo(u);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.BOOLEAN, true), ValueType.INTEGER)).isEqualTo(1L);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.INTEGER, 0L), ValueType.BOOLEAN)).isEqualTo(false);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.INTEGER, 7L), ValueType.DECIMAL)).isEqualTo(BigDecimal.valueOf(7));
    }

    @Test
    void aValueThatDoesNotFitSaysWhich() {
        assertThatThrownBy(() -> ValueBinding.convert(new TypedValue(ValueType.DECIMAL, new BigDecimal("1.5")), ValueType.INTEGER))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("DECIMAL:1.5").hasMessageContaining("INTEGER");
    }

    /** SPEC 8.8: what a destination cannot hold is refused with the reason, never stored as something else. */
    @Test
    void aValueTheDestinationCannotHoldIsRefusedWithTheReason() {
        io.jdbcrepl.dialect.Dialect mysql = io.jdbcrepl.dialect.Dialect.named("mariadb");
        io.jdbcrepl.dialect.Dialect pg = io.jdbcrepl.dialect.Dialect.named("postgresql");
        TypedValue infinity = new TypedValue(ValueType.TIMESTAMP, ValueType.TIMESTAMP.fromJson("infinity"));
        assertThatThrownBy(() -> ValueBinding.check(infinity, ValueType.TIMESTAMP, mysql))
                .hasMessageContaining("TIMESTAMP:infinity").hasMessageContaining("infinite");
        ValueBinding.check(infinity, ValueType.TIMESTAMP, pg);
        TypedValue nan = new TypedValue(ValueType.DECIMAL, ValueType.DECIMAL.fromJson("NaN"));
        assertThatThrownBy(() -> ValueBinding.check(nan, ValueType.DECIMAL, mysql)).hasMessageContaining("NaN");
        TypedValue bc = new TypedValue(ValueType.DATE, ValueType.DATE.fromJson("0044-03-15 BC"));
        assertThatThrownBy(() -> ValueBinding.check(bc, ValueType.DATE, mysql)).hasMessageContaining("BC date");
        TypedValue zero = new TypedValue(ValueType.DATE, ValueType.DATE.fromJson("0000-00-00"));
        assertThatThrownBy(() -> ValueBinding.check(zero, ValueType.DATE, pg)).hasMessageContaining("zero date");
        ValueBinding.check(zero, ValueType.DATE, mysql);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.STRING, "yes"), ValueType.BOOLEAN)).isEqualTo(true);
    }

    @Test
    void aLargeObjectTakesBytesOrUtf8TextButNeverANumber() {
        byte[] bytes = {0, (byte) 0xff, 10};
        assertThat((byte[]) ValueBinding.convert(new TypedValue(ValueType.BINARY, bytes), ValueType.LARGE_OBJECT))
                .containsExactly(bytes);
        assertThat((byte[]) ValueBinding.convert(new TypedValue(ValueType.STRING, "é✓"), ValueType.LARGE_OBJECT))
                .containsExactly("é✓".getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThatThrownBy(() -> ValueBinding.convert(new TypedValue(ValueType.INTEGER, 16_391L), ValueType.LARGE_OBJECT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("INTEGER:16391")
                .hasMessageContaining("names nothing on another database");
    }

    @Test
    void aLargeObjectReachesABlobAsBytesAndATextColumnAsStrictUtf8() {
        byte[] bytes = {0, (byte) 0xff, 10};
        assertThat((byte[]) ValueBinding.convert(new TypedValue(ValueType.LARGE_OBJECT, bytes), ValueType.BINARY))
                .containsExactly(bytes);
        byte[] text = "@Lob String é".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertThat(ValueBinding.convert(new TypedValue(ValueType.LARGE_OBJECT, text), ValueType.STRING))
                .isEqualTo("@Lob String é");
        assertThatThrownBy(() -> ValueBinding.convert(new TypedValue(ValueType.LARGE_OBJECT, bytes), ValueType.STRING))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("not UTF-8");
    }
}
