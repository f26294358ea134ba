"""The registry's pages, one module by subject: the domain registry (`domains`) and the entity
alias table (`aliases`). Admins only; every change goes through registry.services."""
