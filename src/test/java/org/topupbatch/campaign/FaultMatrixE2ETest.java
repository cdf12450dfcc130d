package org.topupbatch.campaign;

/** The fault matrix on the embedded H2 journal (the default). */
class FaultMatrixE2ETest extends FaultMatrix {

    @Override
    CampaignJournal journal(String caseName) {
        return CampaignJournal.h2();
    }
}
