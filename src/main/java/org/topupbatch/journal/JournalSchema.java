package org.topupbatch.journal;

import javax.sql.DataSource;
import org.flywaydb.core.Flyway;
import org.flywaydb.core.api.MigrationInfo;
import org.flywaydb.core.api.output.ValidateResult;

/**
 * The journal's schema against this jar's Flyway migrations ({@code db/migration}). Only the product
 * (and {@code migrate-journal}) brings it up to date; a command beside it only looks: a command that
 * migrated would race the product's own start, or change a journal under a product of an older jar.
 */
final class JournalSchema {

    /** What a command finds. */
    enum State { CURRENT, EMPTY }

    private JournalSchema() {
    }

    static void migrate(DataSource dataSource) {
        flyway(dataSource).migrate();
    }

    /**
     * Checks, changes nothing: {@link State#EMPTY} when no product ever opened this journal (no
     * migration applied), {@link State#CURRENT} when it is up to date.
     *
     * @throws JournalOutdatedException when the journal lacks migrations of this jar
     * @throws JournalException when its applied migrations differ from this jar's
     */
    static State check(DataSource dataSource, String shownUrl) {
        Flyway flyway = flyway(dataSource);
        MigrationInfo current = flyway.info().current();
        if (current == null) {
            return State.EMPTY;
        }
        MigrationInfo[] pending = flyway.info().pending();
        if (pending.length > 0) {
            throw new JournalOutdatedException(shownUrl, current.getVersion().toString(),
                    pending[pending.length - 1].getVersion().toString());
        }
        ValidateResult result = flyway.validateWithResult();
        if (!result.validationSuccessful) {
            String why = result.errorDetails == null ? "its migrations differ from this jar's"
                    : result.errorDetails.errorMessage;
            throw new JournalException("the journal database " + shownUrl + " does not match this topup-batch: "
                    + why.lines().findFirst().orElse(why));
        }
        return State.CURRENT;
    }

    private static Flyway flyway(DataSource dataSource) {
        return Flyway.configure().dataSource(dataSource).locations("classpath:db/migration").load();
    }
}
