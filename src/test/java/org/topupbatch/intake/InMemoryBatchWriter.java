package org.topupbatch.intake;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.topupbatch.journal.BatchWriter;
import org.topupbatch.journal.NewRow;
import org.topupbatch.journal.RowState;

/** A BatchWriter test double following the journal contract: only order rows take a ref_id. */
final class InMemoryBatchWriter implements BatchWriter {
    final Set<String> journalRefIds = new HashSet<>();
    /** The journal's answer for repeat keys: earlier batches' orders within the window. */
    final java.util.Map<String, org.topupbatch.journal.EarlierOrder> journalRepeats = new java.util.HashMap<>();
    final List<Long> repeatWindowStarts = new ArrayList<>();
    final List<NewRow> rows = new ArrayList<>();
    String rejectAllMessage;
    boolean committed;

    @Override
    public boolean refIdTaken(String refId) {
        return journalRefIds.contains(refId)
                || rows.stream().anyMatch(r -> r.state() != RowState.REJECTED && r.refId().equals(refId));
    }

    @Override
    public Long lineInThisBatch(String refId) {
        return rows.stream().filter(r -> refId.equals(r.refId())).map(NewRow::line).findFirst().orElse(null);
    }

    @Override
    public void expectRepeats(java.util.Collection<String> repeatKeys, long windowStart) {
        repeatWindowStarts.add(windowStart);
    }

    @Override
    public org.topupbatch.journal.EarlierOrder earlierOrder(String repeatKey, long windowStart) {
        return rows.stream().filter(r -> r.state() != RowState.REJECTED && repeatKey.equals(r.repeatKey()))
                .map(r -> org.topupbatch.journal.EarlierOrder.inThisFile(r.refId(), r.line(), r.waitsFor())).findFirst()
                .orElse(journalRepeats.get(repeatKey));
    }

    @Override
    public void add(NewRow row) {
        rows.add(row);
    }

    @Override
    public void rejectAllAccepted(String message) {
        rejectAllMessage = message;
        rows.replaceAll(r -> r.state() != RowState.ACCEPTED ? r
                : new NewRow(r.seq(), r.line(), r.refId(), r.productSku(), r.customerNo(), r.customerNoZone(),
                        r.maxPrice(), r.extras(), RowState.REJECTED, null, message));
    }

    @Override
    public long commit() {
        committed = true;
        return 1;
    }

    @Override
    public void close() {
    }
}
