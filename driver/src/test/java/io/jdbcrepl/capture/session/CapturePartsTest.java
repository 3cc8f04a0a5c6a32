package io.jdbcrepl.capture.session;

import io.jdbcrepl.dialect.Dialect;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Every database has the parts of the capture session. */
class CapturePartsTest {

    @Test
    void everyDatabaseHasThem() {
        for (Dialect d : Dialect.all()) {
            assertThat(d.part(UnwrapViews.class)).as(d.name() + " UnwrapViews").isNotNull();
        }
    }
}
