package io.jdbcrepl.lcr;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class JsonTest {

    @Test
    void writesAndReadsObjectsInKeyOrder() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("z", new BigDecimal("4900.00"));
        m.put("a", "x\"y\\z\n\u0001");
        m.put("n", null);
        m.put("b", true);
        m.put("l", List.of(new BigDecimal("1"), "two"));
        String text = Json.write(m);
        assertThat(text).isEqualTo("{\"z\":4900.00,\"a\":\"x\\\"y\\\\z\\n\\u0001\",\"n\":null,\"b\":true,\"l\":[1,\"two\"]}");
        assertThat(Json.read(text)).isEqualTo(m);
        assertThat(Json.readObject(text).keySet()).containsExactly("z", "a", "n", "b", "l");
    }

    @Test
    void numbersKeepEveryDigitAndTheirScale() {
        Object read = Json.read("123456789012345678901234567890.000100");
        assertThat(read).isEqualTo(new BigDecimal("123456789012345678901234567890.000100"));
        assertThat(Json.write(new BigDecimal("1E+3"))).isEqualTo("1000");
    }

    @Test
    void rejectsMalformedText() {
        for (String bad : List.of("{", "{\"a\" 1}", "[1,]", "\"open", "tru", "{} x", "{\"a\":1,}", "\"\\q\"")) {
            assertThatThrownBy(() -> Json.read(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    @Test
    void readsWhitespaceAndEscapes() {
        assertThat(Json.read(" { \"k\" : [ 1 , 2 ] , \"u\" : \"\\u00e9\\/\" } "))
                .isEqualTo(Map.of("k", List.of(BigDecimal.ONE, new BigDecimal(2)), "u", "é/"));
    }
}
