"""Many deals solved at once (``kosolve batch``, docs/batch.md): the deals
of a file of lines or a folder (:mod:`~kosolve.batch.source`), each answered
by the library's one orchestration (:mod:`~kosolve.batch.tasks`) on this
machine's cores or on a Dask cluster (:mod:`~kosolve.batch.runner`,
:mod:`~kosolve.batch.cluster`), into a results file that an interrupted
batch resumes (:mod:`~kosolve.batch.results`), and summarised
(:mod:`~kosolve.batch.summary`)."""
