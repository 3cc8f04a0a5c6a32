package io.jdbcrepl.verify;

import io.jdbcrepl.lcr.ValueType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class CanonicalValueTest {

    @Test
    void jsonIsComparedAsADocument() {
        String postgresJsonb = "{\"list\": [1, 2, 3], \"updated_by\": 3}";
        String mariaDbText = "{\"updated_by\": 3, \"list\": [1,2,3]}";
        assertThat(CanonicalValue.of(ValueType.JSON, postgresJsonb)).isEqualTo(CanonicalValue.of(ValueType.JSON, mariaDbText))
                .isEqualTo("{\"list\":[1,2,3],\"updated_by\":3}");
        assertThat(CanonicalValue.of(ValueType.JSON, "{\"x\": 1.50, \"n\": {\"b\": null, \"a\": 0.0}}"))
                .isEqualTo("{\"n\":{\"a\":0,\"b\":null},\"x\":1.5}");
        assertThat(CanonicalValue.of(ValueType.JSON, "[100, 1e2]")).isEqualTo("[100,100]");
    }

    @Test
    void differentDocumentsStayDifferent() {
        assertThat(CanonicalValue.of(ValueType.JSON, "{\"a\": [1, 2]}")).isNotEqualTo(CanonicalValue.of(ValueType.JSON, "{\"a\": [2, 1]}"));
        assertThat(CanonicalValue.of(ValueType.JSON, "{\"a\": \"1\"}")).isNotEqualTo(CanonicalValue.of(ValueType.JSON, "{\"a\": 1}"));
    }

    @Test
    void textThatIsNotJsonStaysAsItIs() {
        assertThat(CanonicalValue.of(ValueType.JSON, "{not json")).isEqualTo("{not json");
    }
}
