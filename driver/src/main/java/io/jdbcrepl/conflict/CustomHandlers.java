package io.jdbcrepl.conflict;

import io.jdbcrepl.api.DmlHandler;
import io.jdbcrepl.api.DmlOperation;
import io.jdbcrepl.config.DmlHandlerDefinition;
import io.jdbcrepl.intercept.SqlState;
import io.jdbcrepl.lcr.CommandType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The custom handlers of one table (SPEC 5.4), instantiated at connect from their
 * {@code repl.dmlhandler.<name>.*} definitions. A handler for the LCR's operation wins over a
 * DEFAULT one. LOB_UPDATE handlers are kept but never chosen: LOB changes arrive as UPDATE LCRs.
 */
public final class CustomHandlers {

    /** A loaded handler with its definition. */
    public record Loaded(DmlHandlerDefinition definition, DmlHandler handler) {}

    private final List<Loaded> handlers;

    private CustomHandlers(List<Loaded> handlers) {
        this.handlers = List.copyOf(handlers);
    }

    /**
     * Instantiates each definition's class.
     *
     * @param definitions the table's definitions ({@code ReplConfig.dmlHandlers(schema, table, ...)})
     * @param loader where to find the classes (the application's: the thread's context class loader)
     * @throws SQLException 22023 naming the key and the class when a class is missing, has no public
     *     no-arg constructor, does not implement {@link DmlHandler}, or its constructor throws
     */
    public static CustomHandlers load(List<DmlHandlerDefinition> definitions, ClassLoader loader) throws SQLException {
        List<Loaded> out = new ArrayList<>();
        for (DmlHandlerDefinition d : definitions) {
            out.add(new Loaded(d, instantiate(d, loader)));
        }
        return new CustomHandlers(out);
    }

    /** One handler's instance; see {@link #load}. */
    public static DmlHandler instantiate(DmlHandlerDefinition d, ClassLoader loader) throws SQLException {
        String where = "repl.dmlhandler." + d.name() + ".class=" + d.className() + ": ";
        Class<?> c;
        try {
            c = Class.forName(d.className(), false, loader);
        } catch (ClassNotFoundException | LinkageError e) {
            throw bad(where + "class not found on the class path (" + e + ")", e);
        }
        if (!DmlHandler.class.isAssignableFrom(c)) {
            throw bad(where + "does not implement " + DmlHandler.class.getName(), null);
        }
        if (c.isInterface() || Modifier.isAbstract(c.getModifiers())) {
            throw bad(where + "is abstract; name a concrete class", null);
        }
        if (!Modifier.isPublic(c.getModifiers())) {
            throw bad(where + "is not a public class", null);
        }
        Constructor<?> ctor;
        try {
            ctor = c.getConstructor();
        } catch (NoSuchMethodException e) {
            throw bad(where + "has no public no-arg constructor", e);
        }
        try {
            return (DmlHandler) ctor.newInstance();
        } catch (InvocationTargetException e) {
            throw bad(where + "its constructor threw " + e.getCause(), e.getCause());
        } catch (ReflectiveOperationException | LinkageError e) {
            throw bad(where + "cannot be instantiated (" + e + ")", e);
        }
    }

    private static SQLException bad(String message, Throwable cause) {
        return SqlState.INVALID_PARAMETER_VALUE.exception(message, cause);
    }

    /** The handler called instead of the default apply for this operation, if any. */
    public Optional<Loaded> dmlHandler(CommandType operation) {
        return find(operation, false);
    }

    /** The error handler for this operation, if any. */
    public Optional<Loaded> errorHandler(CommandType operation) {
        return find(operation, true);
    }

    private Optional<Loaded> find(CommandType operation, boolean errorHandler) {
        DmlOperation op = DmlOperation.valueOf(operation.name());
        Optional<Loaded> exact = handlers.stream()
                .filter(l -> l.definition().errorHandler() == errorHandler && l.definition().operation() == op).findFirst();
        return exact.isPresent() ? exact : handlers.stream().filter(
                l -> l.definition().errorHandler() == errorHandler && l.definition().operation() == DmlOperation.DEFAULT)
                .findFirst();
    }
}
