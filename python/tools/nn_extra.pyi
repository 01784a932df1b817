
def parameters(obj: object) -> List[Tensor]:
    """
    Every Tensor with requires_grad reachable from `obj` through attributes,
    lists, tuples and dicts (and a layer's registered parameters), each once,
    in order: the seed's nn.parameters().
    """
    ...
