"""Path-scoped skills in a subagent: the files it reads, writes or edits load matching skills into its
own conversation, with the trigger of the main session (`runtime.skill_paths`).

The child sees its parent's skills (same definitions and trust) but keeps its own record of what its
conversation carries, so a skill its parent loaded is still loaded for the child, once, and the child's
activations never reach the parent's requests. Their frontmatter hooks run through the child's hook
dispatcher (the parent's hooks, named for the agent) for the child's turn.
"""

from __future__ import annotations

from vtcode.runtime.emitter import Emitter
from vtcode.runtime.session_parts import Wiring
from vtcode.runtime.skill_paths import attach_path_skills
from vtcode.runtime.skills import SessionSkills, attach_activations


def attach_child_path_skills(parent: SessionSkills, child: Wiring, emitter: Emitter) -> None:
    """Load `parent`'s path-scoped skills in the `child` session when its file tools touch a match."""
    skills = parent.for_child(emitter.warn)
    attach_activations(
        skills,
        dispatcher=child.dispatcher,
        runner=child.runner,
        hooks=child.hooks,
        compactor=child.compactor,
        new_hooks=None,  # the child runs its parent's hooks, or none: it makes no dispatcher of its own
    )
    attach_path_skills(
        skills,
        hooks=child.hooks,
        project_root=child.prompt.options.project_root,
        inform=emitter.inform,
    )
