package io.jdbcrepl.it.apply.handlers;

import io.jdbcrepl.api.DmlContext;
import io.jdbcrepl.api.DmlHandler;
import java.math.BigDecimal;
import java.sql.PreparedStatement;
import java.sql.SQLException;

/**
 * An error handler (SPEC 5.4) for update conflicts on employees: the row keeps the higher of its
 * salary and the LCR's new one, written with a statement of its own; the LCR is then discarded.
 */
public class KeepHigherSalary implements DmlHandler {

    @Override
    public void handle(DmlContext context) throws SQLException {
        if (context.conflict() == null || context.conflict().currentRow() == null) {
            throw new SQLException("KeepHigherSalary handles update conflicts only", "45000");
        }
        BigDecimal here = new BigDecimal(context.conflict().currentRow().get("salary").value().toString());
        BigDecimal theirs = new BigDecimal(context.lcr().newValues().get("salary").value().toString());
        Object id = context.lcr().oldValues().get("employee_id").value();
        try (PreparedStatement ps = context.connection().prepareStatement(
                "UPDATE employees SET salary = ? WHERE employee_id = ?")) {
            ps.setBigDecimal(1, here.max(theirs));
            ps.setLong(2, ((Number) id).longValue());
            ps.executeUpdate();
        }
        context.discard();
    }
}
