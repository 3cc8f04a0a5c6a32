package io.jdbcrepl.conflict;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.DmlHandlerDefinition;
import io.jdbcrepl.config.TableName;
import io.jdbcrepl.lcr.CommandType;
import java.sql.SQLException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** SPEC 5.4: loading the classes named in repl.dmlhandler.<name>.class. */
class CustomHandlersTest {

    public static class Good implements DmlHandler {
        @Override
        public void handle(DmlContext context) {}
    }

    public static class Other extends Good {}

    public static class NoNoArg implements DmlHandler {
        public NoNoArg(String x) {}

        @Override
        public void handle(DmlContext context) {}
    }

    public static class PrivateCtor implements DmlHandler {
        private PrivateCtor() {}

        @Override
        public void handle(DmlContext context) {}
    }

    public static class Throws implements DmlHandler {
        public Throws() {
            throw new IllegalStateException("no config");
        }

        @Override
        public void handle(DmlContext context) {}
    }

    public abstract static class Abstract implements DmlHandler {}

    public static class NotAHandler {}

    static class NotPublic implements DmlHandler {
        @Override
        public void handle(DmlContext context) {}
    }

    private static DmlHandlerDefinition def(String name, Class<?> c, DmlOperation op, boolean error) {
        return def(name, c.getName(), op, error);
    }

    private static DmlHandlerDefinition def(String name, String c, DmlOperation op, boolean error) {
        return new DmlHandlerDefinition(name, new TableName("hr", "emp"), op, c, error);
    }

    private static SQLException refused(Class<?> c, String why) {
        return refused(c.getName(), why);
    }

    private static SQLException refused(String className, String why) {
        SQLException e = catchThrowableOfType(SQLException.class, () -> CustomHandlers.load(
                List.of(def("audit", className, DmlOperation.DEFAULT, false)), CustomHandlersTest.class.getClassLoader()));
        assertThat((Throwable) e).as(className).isNotNull();
        assertThat(e.getSQLState()).isEqualTo("22023");
        assertThat(e.getMessage()).contains("repl.dmlhandler.audit.class=" + className).contains(why);
        return e;
    }

    @Test
    void badClassesAreRefusedNamingTheKeyAndTheClass() {
        refused("com.example.Missing", "class not found");
        refused(NotAHandler.class, "does not implement io.jdbcrepl.api.DmlHandler");
        refused(NoNoArg.class, "no public no-arg constructor");
        refused(PrivateCtor.class, "no public no-arg constructor");
        refused(Abstract.class, "abstract");
        refused(DmlHandler.class, "abstract");
        refused(NotPublic.class, "not a public class");
        assertThat(refused(Throws.class, "constructor threw").getCause()).hasMessage("no config");
    }

    @Test
    void theOperationsOwnHandlerWinsOverDefault() throws SQLException {
        CustomHandlers h = CustomHandlers.load(List.of(
                def("all", Good.class, DmlOperation.DEFAULT, false),
                def("upd", Other.class, DmlOperation.UPDATE, false),
                def("err", Good.class, DmlOperation.DELETE, true)), getClass().getClassLoader());
        assertThat(h.dmlHandler(CommandType.UPDATE).orElseThrow().definition().name()).isEqualTo("upd");
        assertThat(h.dmlHandler(CommandType.UPDATE).orElseThrow().handler()).isInstanceOf(Other.class);
        assertThat(h.dmlHandler(CommandType.INSERT).orElseThrow().definition().name()).isEqualTo("all");
        assertThat(h.dmlHandler(CommandType.DELETE).orElseThrow().definition().name()).isEqualTo("all");
        assertThat(h.errorHandler(CommandType.DELETE).orElseThrow().definition().name()).isEqualTo("err");
        assertThat(h.errorHandler(CommandType.UPDATE)).isEmpty();
        assertThat(CustomHandlers.load(List.of(), getClass().getClassLoader()).dmlHandler(CommandType.INSERT)).isEmpty();
    }
}
