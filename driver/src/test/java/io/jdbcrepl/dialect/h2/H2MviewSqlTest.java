package io.jdbcrepl.dialect.h2;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class H2MviewSqlTest {

    @Test
    void theH2TriggerIsCalledByItsClassName() {
        assertThat(H2MviewSql.TRIGGER_CLASS).isEqualTo(H2LogTrigger.class.getName());
    }

    @Test
    void h2TriggerNamesSayWhetherTheLogHasNewValues() {
        assertThat(H2MviewSql.hasNewValues("MLOG$_T" + H2MviewSql.triggerSuffix(true))).isTrue();
        assertThat(H2MviewSql.hasNewValues("MLOG$_T" + H2MviewSql.triggerSuffix(false))).isFalse();
    }
}
