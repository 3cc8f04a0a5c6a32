package io.jdbcrepl.api;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.jdbcrepl.conflict.HandlerContext;
import io.jdbcrepl.lcr.CommandType;
import io.jdbcrepl.lcr.RowImage;
import io.jdbcrepl.lcr.RowLcr;
import io.jdbcrepl.lcr.ValueType;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** A user's handler against the context the apply side gives it, with a stub executor. */
class DmlHandlerApiTest {

    private static final Conflict SALARY = new Conflict(DmlOperation.UPDATE, ConflictType.ROW_EXISTS,
            ConflictKind.UPDATE, List.of("salary"),
            new RowImage().put("employee_id", ValueType.INTEGER, 200L).put("salary", ValueType.INTEGER, 5000L), false,
            null);

    /** Records what the apply side was asked to execute; fails with SALARY when told to. */
    private static final class StubExecutor implements HandlerContext.Executor {
        final List<String> calls = new ArrayList<>();
        boolean conflicts;

        @Override
        public Conflict execute(RowLcr lcr, boolean conflictResolution) throws SQLException {
            calls.add(lcr.newValues().get("salary").value() + (conflictResolution ? " with" : " without"));
            if (conflicts && !conflictResolution) throw new ConflictException("salary differs", SALARY);
            return conflicts ? SALARY : null;
        }
    }

    private static RowLcr lcr() {
        return new RowLcr("dbs1", CommandType.UPDATE, "hr", "employees", "tx1", 7, Instant.EPOCH, null,
                new RowImage().put("employee_id", ValueType.INTEGER, 200L).put("salary", ValueType.INTEGER, 4400L),
                new RowImage().put("salary", ValueType.INTEGER, 4900L), List.of("salary"), Map.of("username", "hr"));
    }

    /** A user's handler: caps raises at 5000 and lets the prebuilt handlers decide. */
    static final class CapRaises implements DmlHandler {
        @Override
        public void handle(DmlContext ctx) throws SQLException {
            long salary = (Long) ctx.lcr().newValues().get("salary").value();
            if (salary > 5000) ctx.lcr().newValues().put("salary", ValueType.INTEGER, 5000L);
            ctx.execute(true);
        }
    }

    @Test
    void aHandlerChangesTheLcrAndExecutesItWithConflictResolution() throws SQLException {
        StubExecutor exec = new StubExecutor();
        RowLcr l = lcr();
        l.newValues().put("salary", ValueType.INTEGER, 9000L);
        HandlerContext ctx = new HandlerContext(l, null, null, exec);
        assertThat(ctx.conflict()).isNull();
        new CapRaises().handle(ctx);
        assertThat(exec.calls).containsExactly("5000 with");
        assertThat(ctx.outcome()).isEqualTo(HandlerContext.Outcome.EXECUTED);
        assertThat(ctx.lcr().extraAttributes()).containsEntry("username", "hr");
    }

    @Test
    void executeWithoutResolutionThrowsTheConflictAndTheHandlerMayCatchIt() throws SQLException {
        StubExecutor exec = new StubExecutor();
        exec.conflicts = true;
        HandlerContext ctx = new HandlerContext(lcr(), null, null, exec);
        DmlHandler retryWithHandlers = c -> {
            try {
                c.execute(false);
            } catch (SQLException e) {
                assertThat(c.conflict()).isEqualTo(SALARY); // the conflict is visible now
                c.execute(true);
            }
        };
        retryWithHandlers.handle(ctx);
        assertThat(exec.calls).containsExactly("4900 without", "4900 with");
        assertThat(ctx.outcome()).isEqualTo(HandlerContext.Outcome.EXECUTED);
        assertThat(ctx.conflict().columns()).containsExactly("salary");
    }

    @Test
    void anErrorHandlerSeesTheConflictAndMayDiscard() throws SQLException {
        StubExecutor exec = new StubExecutor();
        HandlerContext ctx = new HandlerContext(lcr(), SALARY, null, exec);
        DmlHandler keepDestination = c -> {
            assertThat(c.conflict().currentRow().get("salary").value()).isEqualTo(5000L);
            c.discard();
        };
        keepDestination.handle(ctx);
        assertThat(exec.calls).isEmpty();
        assertThat(ctx.outcome()).isEqualTo(HandlerContext.Outcome.DISCARDED);
    }

    @Test
    void returningWithoutExecutingDiscardsAndThrowingPropagates() throws SQLException {
        StubExecutor exec = new StubExecutor();
        HandlerContext ctx = new HandlerContext(lcr(), null, null, exec);
        ((DmlHandler) c -> { }).handle(ctx);
        assertThat(ctx.outcome()).isEqualTo(HandlerContext.Outcome.DISCARDED);
        DmlHandler refuse = c -> {
            throw new SQLException("salary above the band", "P0001");
        };
        assertThatThrownBy(() -> refuse.handle(new HandlerContext(lcr(), null, null, exec)))
                .isInstanceOf(SQLException.class).hasMessage("salary above the band");
    }
}
