def replay(trace: dict) -> dict:
    raise NotImplementedError
