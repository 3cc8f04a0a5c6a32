package io.jdbcrepl.apply;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TableMapTest {

    @Test
    void theSourcesDriverSchemaMapsToOurs() {
        assertThat(TableMap.mapSchema("public", "public", "repl_it_n2")).isEqualTo("repl_it_n2");
        assertThat(TableMap.mapSchema("PUBLIC", "PUBLIC", "public")).isEqualTo("public");
        assertThat(TableMap.mapSchema(null, "public", "PUBLIC")).isEqualTo("PUBLIC");
    }

    @Test
    void otherSchemasKeepTheirNames() {
        assertThat(TableMap.mapSchema("hr", "public", "repl_it_n2")).isEqualTo("hr");
    }

    @Test
    void namesAreTriedExactlyThenFoldedBothWays() {
        assertThat(TableMap.candidates("Emp")).containsExactly("Emp", "emp", "EMP");
        assertThat(TableMap.candidates("emp")).containsExactly("emp", "EMP");
        assertThat(TableMap.candidates("EMP")).containsExactly("EMP", "emp");
    }
}
