package org.topupbatch.submit;

import java.util.function.Supplier;
import org.topupbatch.journal.JdbcJournal;
import org.topupbatch.journal.Journal;

/** Planted for JournalRolesTest: a business class that takes the whole journal instead of its roles. */
public final class PlantedWholeJournal {

    private final Journal journal;

    PlantedWholeJournal(Journal journal) {
        this.journal = journal;
    }

    void reopened(Supplier<JdbcJournal> opened) {
    }
}
